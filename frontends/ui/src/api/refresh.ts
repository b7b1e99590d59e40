import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Reads queries again after a write. react-query's refetch cancels a running fetch only for a query with
 * data, so a first fetch that read before the write commits would win: cancel those fetches first, then
 * invalidate every match (why: docs/frontend.md). Resolves when the shown ones are read.
 */
export async function refreshQueries(client: QueryClient, ...queryKeys: QueryKey[]): Promise<void> {
  const withoutData = (query: { state: { data: unknown } }) => query.state.data === undefined;
  await Promise.all(queryKeys.map((queryKey) => client.cancelQueries({ queryKey, predicate: withoutData })));
  await Promise.all(queryKeys.map((queryKey) => client.invalidateQueries({ queryKey })));
}
