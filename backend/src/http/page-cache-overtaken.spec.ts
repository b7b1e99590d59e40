import { InProcessEvents } from '../infra/events/in-process.events.js';
import { Metrics } from '../infra/metrics/metrics.js';
import { type CachedDetail, PageCache } from './page-cache.js';

/** A load the test finishes when it wants; `calls` counts the loads started. */
function controlledLoad<T>(make: (n: number) => T) {
  const pending: Array<(n: number) => void> = [];
  const state = {
    calls: 0,
    load: () =>
      new Promise<T>((resolve) => {
        state.calls++;
        pending.push((n) => resolve(make(n)));
      }),
    finish: () => pending.shift()!(state.calls),
  };
  return state;
}

const author = (id: number) => ({ id, username: `member${id}` });
const detailOf =
  (related: number[] = []) =>
  (n: number): CachedDetail => ({
    detail: { n, author: author(5) },
    related,
    head: Buffer.from(`{"n":${n},"views":`),
    tail: Buffer.from('}'),
    etag: `"${n}"`,
  });

describe('the page cache, a load under way and the changes made meanwhile', () => {
  let events: InProcessEvents;
  let cache: PageCache;
  const change = (c: { lists?: true; threads?: number[]; members?: number[]; profiles?: number[] }) =>
    events.broadcast({ type: 'pages_changed', ...c });

  beforeEach(() => {
    events = new InProcessEvents();
    cache = new PageCache(events, new Metrics());
    cache.onModuleInit();
  });
  afterEach(() => cache.onModuleDestroy());

  /** Loads paste 7 while `meanwhile` runs; whether the next read was served from memory. */
  async function keptAfter(meanwhile: () => Promise<void>, related: number[] = []): Promise<boolean> {
    const paste = controlledLoad(detailOf(related));
    const loading = cache.detail(7, paste.load, false);
    await meanwhile();
    paste.finish();
    await loading;
    const next = cache.detail(7, paste.load, false);
    if (paste.calls > 1) paste.finish();
    await next;
    return paste.calls === 1;
  }

  it('keeps a paste whose load saw only other pastes and the lists change', async () => {
    expect(await keptAfter(() => change({ threads: [8, 9], lists: true }))).toBe(true);
  });

  it('does not keep a paste that changed while it loaded, nor one whose related paste did', async () => {
    expect(await keptAfter(() => change({ threads: [7] }))).toBe(false);
    cache = new PageCache(events, new Metrics());
    cache.onModuleInit();
    expect(await keptAfter(() => change({ threads: [3] }), [3])).toBe(false);
  });

  it('does not keep a page that shows a member changed meanwhile; keeps it for another member', async () => {
    expect(await keptAfter(() => change({ members: [6] }))).toBe(true);
    cache = new PageCache(events, new Metrics());
    cache.onModuleInit();
    expect(await keptAfter(() => change({ members: [5] }))).toBe(false);
  });

  it('keeps a list whose load saw pastes change, not one that saw the lists change', async () => {
    const home = controlledLoad((n) => ({ threads: [{ id: 1, title: `v${n}`, author: author(5) }] }));
    let loading = cache.list('home', home.load, false);
    await change({ threads: [1] });
    home.finish();
    await loading;
    await cache.list('home', home.load, false);
    expect(home.calls).toBe(1);

    await change({ lists: true });
    loading = cache.list('home', home.load, false);
    await change({ lists: true });
    home.finish();
    await loading;
    const next = cache.list('home', home.load, false);
    home.finish();
    expect(JSON.parse((await next).json.toString()).threads[0].title).toBe('v3');
    expect(home.calls).toBe(3);
  });

  it('keeps what it learnt of changes while a load a change took from it still runs', async () => {
    const paste = controlledLoad(detailOf());
    const other = controlledLoad(detailOf());
    const first = cache.detail(7, paste.load, false);
    await change({ threads: [7] }); // the first load is no longer shared, but still runs
    const second = cache.detail(8, other.load, false);
    other.finish();
    await second; // the only load in the shared map settled: 7's change must still count
    paste.finish();
    await first;
    const next = cache.detail(7, paste.load, false);
    expect(paste.calls).toBe(2);
    paste.finish();
    await next;
  });
});
