/**
 * @jest-environment node
 */
import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { refreshQueries } from './refresh.js';

/** A server's one value: a fetch reads it when it starts and answers a little later. */
function fakeServer(initial: string) {
  const server = {
    value: initial,
    reads: 0,
    queryFn: () => {
      const read = server.value;
      server.reads += 1;
      return new Promise<string>((resolve) => setTimeout(() => resolve(read), 20));
    },
  };
  return server;
}

/** The query as a mounted screen holds it: an observer, so it is active and fetches. */
function watch(client: QueryClient, queryKey: QueryKey, queryFn: () => Promise<string>) {
  const observer = new QueryObserver(client, { queryKey, queryFn });
  const seen: Array<string | undefined> = [];
  const unsubscribe = observer.subscribe((result) => seen.push(result.data));
  return { observer, seen, unsubscribe };
}

const settled = (client: QueryClient) =>
  new Promise<void>((resolve) => {
    const poll = () => (client.isFetching() === 0 ? resolve() : setTimeout(poll, 5));
    poll();
  });

const key = ['/api/admin/users', { q: 'mallory' }];

test('react-query keeps a first fetch that read before the write when only invalidated (why the helper exists)', async () => {
  const client = new QueryClient();
  const server = fakeServer('ACTIVE');
  const { unsubscribe } = watch(client, key, server.queryFn);
  server.value = 'BANNED';
  await client.invalidateQueries({ queryKey: ['/api/admin/users'] });
  await settled(client);
  expect(client.getQueryData(key)).toBe('ACTIVE');
  unsubscribe();
  client.clear();
});

test('refreshQueries replaces a first fetch that read before the write', async () => {
  const client = new QueryClient();
  const server = fakeServer('ACTIVE');
  const { seen, unsubscribe } = watch(client, key, server.queryFn);
  server.value = 'BANNED';
  await refreshQueries(client, ['/api/admin/users']);
  await settled(client);
  expect(client.getQueryData(key)).toBe('BANNED');
  expect(server.reads).toBe(2);
  expect(seen).not.toContain('ACTIVE');
  unsubscribe();
  client.clear();
});

test('refreshQueries keeps showing a query’s data while it reads it again', async () => {
  const client = new QueryClient();
  const server = fakeServer('v1');
  const { observer, seen, unsubscribe } = watch(client, key, server.queryFn);
  await settled(client);
  expect(client.getQueryData(key)).toBe('v1');
  void observer.refetch(); // a refetch running when the write lands
  server.value = 'v2';
  await refreshQueries(client, ['/api/admin/users']);
  await settled(client);
  expect(client.getQueryData(key)).toBe('v2');
  expect(seen.slice(seen.indexOf('v1'))).not.toContain(undefined);
  unsubscribe();
  client.clear();
});

test('refreshQueries keeps what was put in the cache while a refetch ran, until the new read lands', async () => {
  const client = new QueryClient();
  const server = fakeServer('v1');
  const { observer, seen, unsubscribe } = watch(client, key, server.queryFn);
  await settled(client);
  void observer.refetch();
  server.value = 'v2';
  client.setQueryData(key, 'v2 (from the live event)');
  await refreshQueries(client, ['/api/admin/users']);
  await settled(client);
  expect(client.getQueryData(key)).toBe('v2');
  expect(seen.slice(seen.indexOf('v2 (from the live event)'))).not.toContain('v1');
  unsubscribe();
  client.clear();
});

test('refreshQueries marks queries not shown stale without fetching them', async () => {
  const client = new QueryClient();
  const server = fakeServer('v1');
  client.setQueryData(['/api/users', { q: '' }], 'cached');
  await refreshQueries(client, ['/api/users']);
  expect(server.reads).toBe(0);
  expect(client.getQueryState(['/api/users', { q: '' }])?.isInvalidated).toBe(true);
});
