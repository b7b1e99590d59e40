import { InProcessEvents } from '../infra/events/in-process.events.js';
import { Metrics } from '../infra/metrics/metrics.js';
import { type CachedDetail, PageCache, splitAroundViews } from './page-cache.js';

const paste = (voteScore: number) => ({
  id: 7,
  title: 'seven',
  voteScore,
  replyCount: 2,
  viewCount: 0,
  // Reply 4 has the id of a paste: a vote on paste 4 must not move it.
  replies: [
    { id: 4, voteScore: 1 },
    { id: 5, voteScore: 0 },
  ],
});
const detailOf = (voteScore: number): CachedDetail => {
  const detail = paste(voteScore);
  return { detail, ...splitAroundViews(detail) };
};
const text = (page: CachedDetail) =>
  JSON.parse(Buffer.concat([page.head, Buffer.from('0'), page.tail]).toString());
const vote = (events: InProcessEvents, threadId: number, replyId: number | null, voteScore: number) =>
  events.broadcast({ type: 'pages_changed', scores: [{ threadId, replyId, voteScore }], countsOnly: true });

describe('the page cache after a vote: the score put into the pages that show it', () => {
  let events: InProcessEvents;
  let cache: PageCache;
  let loads: number;
  const load =
    <T>(value: () => T) =>
    () => {
      loads++;
      return Promise.resolve(value());
    };

  beforeEach(() => {
    loads = 0;
    events = new InProcessEvents();
    cache = new PageCache(events, new Metrics());
    cache.onModuleInit();
  });
  afterEach(() => cache.onModuleDestroy());

  it("patches a paste's page and its cards in place, with new ETags, and reloads nothing", async () => {
    const detail = await cache.detail(
      7,
      load(() => detailOf(3)),
      false,
    );
    const etag = detail.etag;
    const cards = () => ({
      threads: [
        { id: 7, voteScore: 3, replyCount: 2 },
        { id: 4, voteScore: 9, replyCount: 0 },
      ],
    });
    const home = await cache.list('home:', load(cards), false);
    const other = await cache.list(
      'profile:2',
      load(() => ({ threads: [{ id: 8, voteScore: 1, replyCount: 0 }] })),
      false,
    );
    const otherEtag = other.etag;
    const homeEtag = home.etag;
    expect(loads).toBe(3);

    await vote(events, 7, null, 4);
    const patched = await cache.detail(
      7,
      load(() => detailOf(0)),
      false,
    );
    expect(text(patched).voteScore).toBe(4);
    expect(text(patched).replies).toEqual(paste(0).replies);
    expect(patched.etag).not.toBe(etag);
    const homeAfter = await cache.list('home:', load(cards), false);
    expect(JSON.parse(homeAfter.json.toString())).toEqual({
      threads: [
        { id: 7, voteScore: 4, replyCount: 2 },
        { id: 4, voteScore: 9, replyCount: 0 },
      ],
    });
    expect(homeAfter.etag).not.toBe(homeEtag);
    expect((await cache.list('profile:2', load(cards), false)).etag).toBe(otherEtag);
    expect(loads).toBe(3);
  });

  it("puts a reply's score into its paste's replies only", async () => {
    await cache.detail(
      7,
      load(() => detailOf(3)),
      false,
    );
    const cards = () => ({ threads: [{ id: 4, voteScore: 9, replyCount: 0 }] });
    const home = await cache.list('home:', load(cards), false);
    const homeEtag = home.etag;

    await vote(events, 7, 4, 2);
    await vote(events, 9, 5, 8); // another paste's reply 5: not this page's
    const patched = text(
      await cache.detail(
        7,
        load(() => detailOf(0)),
        false,
      ),
    );
    expect(patched.voteScore).toBe(3);
    expect(patched.replies).toEqual([
      { id: 4, voteScore: 2 },
      { id: 5, voteScore: 0 },
    ]);
    // Paste 4's card is not reply 4.
    expect((await cache.list('home:', load(cards), false)).etag).toBe(homeEtag);
    // A vote on paste 4 leaves reply 4 of paste 7 as it was.
    await vote(events, 4, null, 10);
    expect(
      text(
        await cache.detail(
          7,
          load(() => detailOf(0)),
          false,
        ),
      ).replies[0],
    ).toEqual({ id: 4, voteScore: 2 });
    expect(loads).toBe(2);
  });

  it('keeps no page whose load was under way when the vote came (it may hold the old score)', async () => {
    let finish: (page: CachedDetail) => void = () => undefined;
    const first = cache.detail(7, () => new Promise<CachedDetail>((resolve) => (finish = resolve)), false);
    await vote(events, 7, null, 4);
    finish(detailOf(3));
    await first;
    const again = await cache.detail(
      7,
      load(() => detailOf(4)),
      false,
    );
    expect(text(again).voteScore).toBe(4);
    expect(loads).toBe(1);
  });
});

describe('the page cache after a new paste: a search page asked whether the paste is its own', () => {
  let events: InProcessEvents;
  let cache: PageCache;

  beforeEach(() => {
    events = new InProcessEvents();
    cache = new PageCache(events, new Metrics());
    cache.onModuleInit();
  });
  afterEach(() => cache.onModuleDestroy());

  it('keeps the page when it does not find the paste, makes it again when it does', async () => {
    let loads = 0;
    const load = () => Promise.resolve({ version: ++loads });
    const asked: number[][] = [];
    let finds = false;
    const owns = (ids: readonly number[]) => {
      asked.push([...ids]);
      return Promise.resolve(finds);
    };
    await cache.list('search:1:docker', load, false, owns);
    await cache.list('home:', load, false);
    expect(loads).toBe(2);

    await events.broadcast({ type: 'pages_changed', posted: [11] });
    await events.broadcast({ type: 'pages_changed', posted: [12] });
    // Readers meanwhile share one question.
    const kept = await Promise.all([1, 2].map(() => cache.list('search:1:docker', load, false, owns)));
    for (const page of kept) expect(JSON.parse(page.json.toString())).toEqual({ version: 1 });
    expect(asked).toEqual([[11, 12]]);
    // Asked once: the next reader gets the page as it is; home (named by no change) was never asked.
    await cache.list('search:1:docker', load, false, owns);
    expect((await cache.list('home:', load, false)).json.toString()).toBe('{"version":2}');
    expect(asked).toHaveLength(1);
    expect(loads).toBe(2);

    finds = true;
    await events.broadcast({ type: 'pages_changed', posted: [13] });
    const made = await cache.list('search:1:docker', load, false, owns);
    expect(JSON.parse(made.json.toString())).toEqual({ version: 3 });
    expect(asked).toEqual([[11, 12], [13]]);
  });
});
