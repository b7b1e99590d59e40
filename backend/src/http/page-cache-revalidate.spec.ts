import { InProcessEvents } from '../infra/events/in-process.events.js';
import { Metrics } from '../infra/metrics/metrics.js';
import { type CachedDetail, PageCache } from './page-cache.js';

/** A load the test finishes when it wants: `calls` counts the loads started. */
function controlledLoad<T>(make: (n: number) => T) {
  const pending: Array<{ resolve: (value: T) => void; reject: (error: Error) => void; n: number }> = [];
  const state = {
    calls: 0,
    load: () =>
      new Promise<T>((resolve, reject) => {
        state.calls++;
        pending.push({ resolve, reject, n: state.calls });
      }),
    finish: () => {
      const next = pending.shift()!;
      next.resolve(make(next.n));
    },
    fail: () => pending.shift()!.reject(new Error('database away')),
  };
  return state;
}

const detailOf = (n: number): CachedDetail => ({
  detail: { n },
  head: Buffer.from(`{"n":${n},"views":`),
  tail: Buffer.from('}'),
  etag: `"${n}"`,
});
const flushed = (events: InProcessEvents, threads: number[]) =>
  events.broadcast({ type: 'pages_changed', lists: true, threads, countsOnly: true });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the page cache after a change of counters only (stored view counts)', () => {
  let events: InProcessEvents;
  let cache: PageCache;

  beforeEach(() => {
    events = new InProcessEvents();
    cache = new PageCache(events, new Metrics());
    cache.onModuleInit();
  });
  afterEach(() => cache.onModuleDestroy());

  it('has the next reader reload a list, and serves the old one to readers meanwhile', async () => {
    const home = controlledLoad((n) => ({ version: n }));
    const first = cache.list('home', home.load, false);
    home.finish();
    expect(JSON.parse((await first).json.toString())).toEqual({ version: 1 });

    await flushed(events, []);
    const reloading = cache.list('home', home.load, false);
    // Readers who come while it runs get the old page at once, however many; one reload runs.
    const meanwhile = await Promise.all([1, 2, 3].map(() => cache.list('home', home.load, false)));
    for (const page of meanwhile) expect(JSON.parse(page.json.toString())).toEqual({ version: 1 });
    expect(home.calls).toBe(2);
    home.finish();
    expect(JSON.parse((await reloading).json.toString())).toEqual({ version: 2 });
    const after = await cache.list('home', home.load, false);
    expect(JSON.parse(after.json.toString())).toEqual({ version: 2 });
    expect(home.calls).toBe(2);
  });

  it('reloads only the lists that show a paste whose counters moved, and no list for a reply elsewhere', async () => {
    const search = controlledLoad((n) => ({ threads: [{ id: 3, replyCount: n }] }));
    const home = controlledLoad((n) => ({ threads: [{ id: 4, replyCount: n }] }));
    for (const [key, load] of [
      ['search:1:docker', search],
      ['home:', home],
    ] as const) {
      const first = cache.list(key, load.load, false);
      load.finish();
      await first;
    }
    // A reply on paste 3: its cards reload once (served meanwhile); home, which does not show it, stays.
    events.broadcast({ type: 'pages_changed', threads: [3], cards: [3] });
    const reloading = cache.list('search:1:docker', search.load, false);
    const meanwhile = await cache.list('search:1:docker', search.load, false);
    expect(JSON.parse(meanwhile.json.toString())).toEqual({ threads: [{ id: 3, replyCount: 1 }] });
    search.finish();
    expect(JSON.parse((await reloading).json.toString())).toEqual({ threads: [{ id: 3, replyCount: 2 }] });
    await cache.list('home:', home.load, false);
    expect(home.calls).toBe(1);
    // The lists a change names by key or prefix are dropped, the others kept.
    events.broadcast({ type: 'pages_changed', listPages: ['home:*'] });
    const dropped = cache.list('home:', home.load, false);
    expect(home.calls).toBe(2);
    home.finish();
    await dropped;
    await cache.list('search:1:docker', search.load, false);
    expect(search.calls).toBe(2);
    // Any paste posted, edited, hidden or deleted (`lists`): every list made again before anyone reads it.
    events.broadcast({ type: 'pages_changed', lists: true });
    const again = cache.list('search:1:docker', search.load, false);
    expect(search.calls).toBe(3);
    search.finish();
    await again;
  });

  it("has a member's profile reloaded when only their reputation moved", async () => {
    const profile = controlledLoad((n) => ({ version: n }));
    const first = cache.list('profile:9', profile.load, false);
    profile.finish();
    await first;
    events.broadcast({ type: 'pages_changed', threads: [1], profiles: [9], countsOnly: true });
    const reloading = cache.list('profile:9', profile.load, false);
    const meanwhile = await cache.list('profile:9', profile.load, false);
    expect(JSON.parse(meanwhile.json.toString())).toEqual({ version: 1 });
    profile.finish();
    expect(JSON.parse((await reloading).json.toString())).toEqual({ version: 2 });
  });

  it('does the same for the pastes named, and leaves the others alone', async () => {
    const paste = controlledLoad(detailOf);
    const other = controlledLoad(detailOf);
    const first = cache.detail(7, paste.load, false);
    paste.finish();
    await first;
    const second = cache.detail(8, other.load, false);
    other.finish();
    await second;

    await flushed(events, [7]);
    const reloading = cache.detail(7, paste.load, false);
    const meanwhile = await Promise.all([1, 2, 3].map(() => cache.detail(7, paste.load, false)));
    for (const page of meanwhile) expect(page.detail).toEqual({ n: 1 });
    expect(paste.calls).toBe(2);
    await cache.detail(8, other.load, false);
    expect(other.calls).toBe(1);
    paste.finish();
    expect((await reloading).detail).toEqual({ n: 2 });
    expect((await cache.detail(7, paste.load, false)).detail).toEqual({ n: 2 });
    expect(paste.calls).toBe(2);
  });

  it('gives the old page to the reader whose reload failed, and reloads at the next read', async () => {
    const paste = controlledLoad(detailOf);
    const first = cache.detail(7, paste.load, false);
    paste.finish();
    await first;
    await flushed(events, [7]);
    const failing = cache.detail(7, paste.load, false);
    paste.fail();
    expect((await failing).detail).toEqual({ n: 1 });
    const retry = cache.detail(7, paste.load, false);
    expect(paste.calls).toBe(3);
    paste.finish();
    expect((await retry).detail).toEqual({ n: 3 });
  });

  it('still drops what any other change names: its readers wait for the new page', async () => {
    const home = controlledLoad((n) => ({ version: n }));
    const first = cache.list('home', home.load, false);
    home.finish();
    await first;
    await flushed(events, []);
    await events.broadcast({ type: 'pages_changed', lists: true });
    const read = cache.list('home', home.load, false);
    const alsoWaits = cache.list('home', home.load, false);
    home.finish();
    expect(JSON.parse((await read).json.toString())).toEqual({ version: 2 });
    expect(JSON.parse((await alsoWaits).json.toString())).toEqual({ version: 2 });
  });

  it('does not keep a reload that another flush overtook, and reloads again', async () => {
    const paste = controlledLoad(detailOf);
    const first = cache.detail(7, paste.load, false);
    paste.finish();
    await first;
    await flushed(events, [7]);
    const reloading = cache.detail(7, paste.load, false);
    await flushed(events, [7]); // the reload may have read the counts before this flush
    paste.finish();
    expect((await reloading).detail).toEqual({ n: 2 });
    await tick();
    const again = cache.detail(7, paste.load, false);
    expect(paste.calls).toBe(3);
    paste.finish();
    expect((await again).detail).toEqual({ n: 3 });
  });
});
