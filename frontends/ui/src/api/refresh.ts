import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Reads queries again after a write, or after a live event saying one happened. `invalidateQueries`
 * alone is not enough: react-query cancels a running fetch for the refetch only when the query already
 * has data, so a query whose first fetch is still running keeps that fetch, which may have read before
 * the write committed (an admin bans a member while the filtered table's first page is loading: the
 * row would stay ACTIVE). So the running fetches of matching queries without data are cancelled first;
 * then every matching query is invalidated, which replaces the running fetches of the others (their
 * data, a message just put in the cache included, stays shown meanwhile). The shown queries refetch at
 * once, the others when next shown. Resolves when the shown ones are read.
 */
export async function refreshQueries(client: QueryClient, ...queryKeys: QueryKey[]): Promise<void> {
  const withoutData = (query: { state: { data: unknown } }) => query.state.data === undefined;
  await Promise.all(queryKeys.map((queryKey) => client.cancelQueries({ queryKey, predicate: withoutData })));
  await Promise.all(queryKeys.map((queryKey) => client.invalidateQueries({ queryKey })));
}
