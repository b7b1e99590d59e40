import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import {
  API,
  FEATURED_MAX,
  PINNED_MAX,
  type RecentPastesPage,
  type SearchResults,
  type PasteCard,
  type PasteDetail,
  pasteDetailSchema,
  type UserProfile,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { ViewCounter } from '../src/modules/pastes/view-counter.js';
import { EDGE_CACHE_CONTROL } from '../src/http/edge-cache.js';
import { FRESH_COOKIE } from '../src/http/page-cache.js';
import { type Browser, registered, sessionCookie } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The page cache of the public reads (home, featured, search, profiles, paste details): what it keeps,
 * that every write a reader could see drops it (read-your-writes, for the writer and everyone else),
 * that no member's own data reaches another's answer, and the HTTP around it (ETag, 304, gzip).
 */
describe('page cache', () => {
  let t: TestApp;
  let admin: { browser: Browser; user: { id: number } };
  let alice: { browser: Browser; user: { id: number; username: string } };
  let bob: { browser: Browser; user: { id: number } };
  /** A visitor: no cookies at all. */
  const visitor = () => supertest(t.url);

  beforeAll(async () => {
    // Views are flushed by the tests themselves: a timer's flush mid-test reloads a page the test reads.
    t = await createTestApp({ env: { VIEW_FLUSH_SECONDS: '300' } });
    admin = await registered(t); // the first account: owner and admin
    alice = await registered(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  async function paste(
    browser: Browser,
    title = 'A cached paste',
    content = 'Some content',
  ): Promise<number> {
    const res = await browser.post(API.threads).send({ title, content }).expect(201);
    return (res.body as { id: number }).id;
  }

  /** A paste written behind the app's back (no write through the API, so nothing is dropped). */
  async function sneakIn(title: string): Promise<number> {
    const [row] = await t.dataSource.query(
      `INSERT INTO threads (title, content, author_id) VALUES ($1, 'sneaked', $2) RETURNING id`,
      [title, alice.user.id],
    );
    return (row as { id: number }).id;
  }

  const homeTitles = async (agent: ReturnType<typeof visitor> | Browser = visitor()) =>
    ((await agent.get(API.threadsRecent).expect(200)).body as RecentPastesPage).threads.map((c) => c.title);

  it('serves home from memory until a write through the API changes it, for every reader', async () => {
    await homeTitles(); // cached now
    await sneakIn('sneaked past the cache');
    expect(await homeTitles()).not.toContain('sneaked past the cache');
    await paste(alice.browser, 'written through the API');
    // The visitor never wrote anything: the write dropped the page for everybody.
    const titles = await homeTitles();
    expect(titles).toContain('written through the API');
    expect(titles).toContain('sneaked past the cache');
  });

  it('shows the writer their own write at once, and gives them a fresh-read cookie on writes only', async () => {
    const visitorHome = await visitor().get(API.threadsRecent).expect(200);
    expect(visitorHome.headers['set-cookie']).toBeUndefined();
    const res = await bob.browser
      .post(API.threads)
      .send({ title: 'bob wrote this', content: 'x' })
      .expect(201);
    const fresh = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith(`${FRESH_COOKIE}=`),
    );
    expect(fresh).toMatch(/Max-Age=10; Path=\/api; HttpOnly; SameSite=Lax/);
    expect(await homeTitles(bob.browser)).toContain('bob wrote this');
  });

  it('reads past the cache while the fresh-read cookie is there (another instance may not have heard yet)', async () => {
    await homeTitles();
    await sneakIn('only fresh readers see me');
    expect(await homeTitles()).not.toContain('only fresh readers see me');
    const fresh = await alice.browser.get(API.threadsRecent).set('Cookie', `${FRESH_COOKIE}=1`).expect(200);
    expect((fresh.body as RecentPastesPage).threads.map((c) => c.title)).toContain(
      'only fresh readers see me',
    );
    // ...and a fresh read does not fill the cache for the others.
    expect(await homeTitles()).not.toContain('only fresh readers see me');
  });

  it('honours the fresh-read cookie only with a valid session, on every cached read', async () => {
    const dana = await registered(t);
    const id = await paste(dana.browser, 'kept in the cache', 'quagganword');
    const routes = {
      home: API.threadsRecent,
      featured: API.threadsFeatured,
      search: `${API.search}?q=quagganword`,
      profile: API.user(dana.user.id),
      paste: API.thread(id),
    };
    const changed = async (path: string, headers: Record<string, string> = {}) =>
      (await visitor().get(path).set(headers).expect(200)).text.includes('changed behind');
    for (const path of Object.values(routes)) expect(await changed(path)).toBe(false); // cached now
    // Behind the app's back: every one of those answers is stale now.
    await t.dataSource.query(
      `UPDATE threads SET title = 'changed behind', is_featured = true WHERE id = $1`,
      [id],
    );
    await t.dataSource.query(`UPDATE users SET bio = 'changed behind' WHERE id = $1`, [dana.user.id]);

    const banned = await registered(t);
    const bannedCookie = sessionCookie(await banned.browser.get(API.currentUser).expect(200))!.split(';')[0]!;
    await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
    const token = (
      await dana.browser
        .post(API.userTokens)
        .send({ name: 'reader', scopes: ['read'] })
        .expect(201)
    ).body.token as string;
    const danaCookie = sessionCookie(await dana.browser.get(API.currentUser).expect(200))!.split(';')[0]!;
    const fresh = `${FRESH_COOKIE}=1`;
    const strangers = {
      'a visitor': { Cookie: fresh },
      'a made-up session': { Cookie: `${fresh}; termpaste.sid=s%3Amadeup.c2lnbmF0dXJl` },
      'a banned member': { Cookie: `${fresh}; ${bannedCookie}` },
      "a member's token": { Cookie: fresh, Authorization: `Bearer ${token}` },
      "a token beside a member's session": {
        Cookie: `${fresh}; ${danaCookie}`,
        Authorization: `Bearer ${token}`,
      },
    };
    try {
      for (const [route, path] of Object.entries(routes)) {
        for (const [who, headers] of Object.entries(strangers)) {
          expect({ route, who, fresh: await changed(path, headers) }).toEqual({ route, who, fresh: false });
        }
        // The member's own session with the cookie reads past the cache.
        const own = await changed(path, { Cookie: `${fresh}; ${danaCookie}` });
        expect({ route, own }).toEqual({ route, own: true });
      }
    } finally {
      await t.dataSource.query('UPDATE threads SET is_featured = false WHERE id = $1', [id]);
    }
  });

  it('answers 304 to a browser that has the page, and a new page after a write', async () => {
    const first = await visitor().get(API.threadsRecent).expect(200);
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe(EDGE_CACHE_CONTROL);
    const again = await visitor().get(API.threadsRecent).set('If-None-Match', etag).expect(304);
    expect(again.text).toBe('');
    await paste(alice.browser, 'a newer paste');
    const after = await visitor().get(API.threadsRecent).set('If-None-Match', etag).expect(200);
    expect(after.headers['etag']).not.toBe(etag);
  });

  it('sends gzip to a browser that accepts it, the same JSON as without', async () => {
    for (let i = 0; i < 12; i++) await paste(alice.browser, `bulk paste ${i} for a body worth compressing`);
    // Views counted by earlier tests are stored now, not by the timer between the two reads (a list shows
    // the stored counts: a flush between them would make them two different pages).
    await t.app.get(ViewCounter).flush();
    const plain = await visitor().get(API.threadsRecent).set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // Raw HTTP: supertest would unzip it unseen.
    const zipped = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        http
          .get(
            `${t.url}${API.threadsRecent}`,
            { headers: { 'Accept-Encoding': 'gzip, deflate, br' } },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (chunk: Buffer) => chunks.push(chunk));
              res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            },
          )
          .on('error', reject);
      },
    );
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['vary']).toBe('Accept-Encoding, Cookie, Authorization');
    expect(zipped.body.length).toBeLessThan(plain.text.length);
    expect(JSON.parse(gunzipSync(zipped.body).toString())).toEqual(plain.body);
  });

  describe('paste detail', () => {
    let id: number;
    let replyId: number;

    beforeAll(async () => {
      id = await paste(alice.browser, 'a paste people vote on');
      const reply = await bob.browser.post(API.threadReplies(id)).send({ content: 'first!' }).expect(201);
      replyId = (reply.body as { id: number }).id;
    });

    const read = async (agent: ReturnType<typeof visitor> | Browser) =>
      pasteDetailSchema.parse((await agent.get(API.thread(id)).expect(200)).body);

    it('never gives one member’s votes to another member or a visitor', async () => {
      await alice.browser.post(API.votes).send({ threadId: id, value: 1 }).expect(200);
      await alice.browser.post(API.votes).send({ replyId, value: -1 }).expect(200);
      // The visitors' page is cached first, then each reader gets their own votes only.
      for (let round = 0; round < 2; round++) {
        const seenByVisitor = await read(visitor());
        expect(seenByVisitor.myVote).toBeNull();
        expect(seenByVisitor.replies.map((r) => r.myVote)).toEqual([null]);
        const seenByBob = await read(bob.browser);
        expect(seenByBob.myVote).toBeNull();
        expect(seenByBob.replies.map((r) => r.myVote)).toEqual([null]);
        const seenByAlice = await read(alice.browser);
        expect(seenByAlice.myVote).toBe(1);
        expect(seenByAlice.replies.map((r) => r.myVote)).toEqual([-1]);
        expect(seenByAlice.voteScore).toBe(1);
        expect(seenByAlice.replies[0]!.voteScore).toBe(-1);
      }
      const visitorAnswer = await visitor().get(API.thread(id)).expect(200);
      expect(visitorAnswer.headers['cache-control']).toBe(EDGE_CACHE_CONTROL);
      const aliceAnswer = await alice.browser.get(API.thread(id)).expect(200);
      expect(aliceAnswer.headers['cache-control']).toBe('private, no-cache');
    });

    it('shows a vote, a reply and a flag to everyone at once', async () => {
      await read(visitor());
      await bob.browser.post(API.votes).send({ replyId, value: -1 }).expect(200);
      expect((await read(visitor())).replies[0]!.voteScore).toBe(-2);
      await admin.browser
        .post(API.threadReplies(id))
        .send({ content: 'second', parentId: replyId })
        .expect(201);
      expect((await read(visitor())).replies.map((r) => r.content)).toEqual(['first!', 'second']);
      await admin.browser.post(API.adminThreadLock(id)).expect(200);
      expect((await read(visitor())).isLocked).toBe(true);
      const card = ((await visitor().get(API.threadsRecent)).body as RecentPastesPage).threads.find(
        (c) => c.id === id,
      );
      expect(card).toMatchObject({ isLocked: true, replyCount: 2 });
      await admin.browser.delete(API.adminThread(id)).expect(200);
      await visitor().get(API.thread(id)).expect(404);
    });

    it('counts every view, cached or not, stored or pending', async () => {
      const other = await paste(bob.browser, 'counted');
      const views: number[] = [];
      for (let i = 0; i < 3; i++) {
        views.push(pasteDetailSchema.parse((await visitor().get(API.thread(other))).body).viewCount);
      }
      await t.app.get(ViewCounter).flush();
      for (let i = 0; i < 2; i++) {
        views.push(pasteDetailSchema.parse((await visitor().get(API.thread(other))).body).viewCount);
      }
      expect(views).toEqual([1, 2, 3, 4, 5]);
      const card = ((await visitor().get(API.threadsRecent)).body as RecentPastesPage).threads.find(
        (c) => c.id === other,
      );
      expect(card?.viewCount).toBe(3); // lists show the stored count (flushed every VIEW_FLUSH_SECONDS)
    });

    it('answers 304 to a browser that has the page, though its view count moved', async () => {
      const other = await paste(bob.browser, 'revalidated');
      const first = await visitor().get(API.thread(other)).expect(200);
      const etag = first.headers['etag'] as string;
      expect(etag).toMatch(/^W\/"/);
      await visitor().get(API.thread(other)).set('If-None-Match', etag).expect(304);
      await bob.browser.post(API.threadReplies(other)).send({ content: 'changes it' }).expect(201);
      const after = await visitor().get(API.thread(other)).set('If-None-Match', etag).expect(200);
      expect((after.body as PasteDetail).replyCount).toBe(1);
    });
  });

  it('drops search results on a new paste, and profiles on a profile change', async () => {
    const search = async () =>
      ((await visitor().get(API.search).query({ q: 'zebracorn' }).expect(200)).body as SearchResults).total;
    expect(await search()).toBe(0);
    await paste(alice.browser, 'the zebracorn paste', 'zebracorn');
    expect(await search()).toBe(1);

    const profile = async () =>
      (await visitor().get(API.user(alice.user.id)).expect(200)).body as UserProfile;
    expect((await profile()).bio).toBeNull();
    await alice.browser.put(API.userProfile).send({ bio: 'I like zebracorns' }).expect(200);
    expect((await profile()).bio).toBe('I like zebracorns');
    // Her name on every page: the paste's card shows what the profile change made of her.
    const reputation = (await profile()).reputation;
    await alice.browser.post(API.chatMessages).send({ content: 'one more point' }).expect(201);
    expect((await profile()).reputation).toBe(reputation + 1);
  });

  it('drops on a profile save only the pages that show the member, and every one of those', async () => {
    const carol = await registered(t);
    const dan = await registered(t);
    const erin = await registered(t);
    const hers = await paste(carol.browser, 'carol writes');
    const repliedTo = await paste(dan.browser, 'dan asks');
    await carol.browser.post(API.threadReplies(repliedTo)).send({ content: 'carol answers' }).expect(201);
    const unrelated = await paste(erin.browser, 'erin alone');
    // Every page read once (cached), then changed behind the app's back: a cached page keeps its old title.
    const title = async (id: number) =>
      ((await visitor().get(API.thread(id)).expect(200)).body as PasteDetail).title;
    const bioOf = async (id: number) =>
      ((await visitor().get(API.user(id)).expect(200)).body as UserProfile).bio;
    for (const id of [hers, repliedTo, unrelated]) await title(id);
    await bioOf(erin.user.id);
    await bioOf(dan.user.id);
    await t.dataSource.query(`UPDATE threads SET title = title || ' (changed)' WHERE id = ANY($1)`, [
      [hers, repliedTo, unrelated],
    ]);
    await t.dataSource.query(`UPDATE users SET bio = 'changed' WHERE id = ANY($1)`, [
      [dan.user.id, erin.user.id],
    ]);

    await carol.browser.put(API.userProfile).send({ bio: 'carol changed' }).expect(200);
    // Hers and the one she replied in show her: read again.
    expect(await title(hers)).toBe('carol writes (changed)');
    expect(await title(repliedTo)).toBe('dan asks (changed)');
    expect(await bioOf(carol.user.id)).toBe('carol changed');
    // Dan's profile lists his paste with her as its last replier: read again.
    expect(await bioOf(dan.user.id)).toBe('changed');
    // Erin's paste and profile do not show her: still the cached pages.
    expect(await title(unrelated)).toBe('erin alone');
    expect(await bioOf(erin.user.id)).toBeNull();
    // Home shows her card: read again, with the titles as they are now.
    expect(await homeTitles()).toContain('carol writes (changed)');
    await t.pagesChanged();
  });

  it('drops every page a member shows on when staff change them (a rename)', async () => {
    const id = await paste(alice.browser, 'renamed author');
    const authorOf = async () =>
      ((await visitor().get(API.threadsRecent)).body as RecentPastesPage).threads.find((c) => c.id === id)
        ?.author?.username;
    expect(await authorOf()).toBe(alice.user.username);
    await visitor().get(API.thread(id)).expect(200);
    await admin.browser
      .put(API.adminUserUsername(alice.user.id))
      .send({ username: 'alice_renamed' })
      .expect(200);
    expect(await authorOf()).toBe('alice_renamed');
    expect(((await visitor().get(API.thread(id))).body as PasteDetail).author?.username).toBe(
      'alice_renamed',
    );
  });

  it(`lists the newest ${PINNED_MAX} pinned pastes and the newest ${FEATURED_MAX} featured ones`, async () => {
    await t.dataSource.query(
      `INSERT INTO threads (title, content, author_id, is_pinned, is_featured, created_at)
       SELECT 'flagged ' || n, 'x', $1, n <= $2 + 1, true, now() - n * interval '1 second'
       FROM generate_series(1, $3::int) n`,
      [alice.user.id, PINNED_MAX, FEATURED_MAX + 1],
    );
    await paste(admin.browser, 'drops the cached lists'); // a write through the API: lists refresh
    const home = (await visitor().get(API.threadsRecent).expect(200)).body as RecentPastesPage;
    expect(home.pinned.map((c) => c.title)).toEqual(
      Array.from({ length: PINNED_MAX }, (_, i) => `flagged ${i + 1}`),
    );
    const featured = (await visitor().get(API.threadsFeatured).expect(200)).body as PasteCard[];
    expect(featured).toHaveLength(FEATURED_MAX);
    expect(featured[0]!.title).toBe('flagged 1');
    expect(featured.at(-1)!.title).toBe(`flagged ${FEATURED_MAX}`);
  });

  it('keeps deeper home pages (by cursor) too, dropped with the rest', async () => {
    for (let i = 0; i < 55; i++) await sneakIn(`filler ${i}`);
    await paste(alice.browser, 'refreshes the lists');
    const first = (await visitor().get(API.threadsRecent).expect(200)).body as RecentPastesPage;
    const page2 = async () =>
      (
        (await visitor().get(API.threadsRecent).query({ cursor: first.nextCursor! }).expect(200))
          .body as RecentPastesPage
      ).threads;
    const [top] = await page2();
    await t.dataSource.query('UPDATE threads SET title = $2 WHERE id = $1', [
      top!.id,
      'renamed behind its back',
    ]);
    expect((await page2())[0]!.title).toBe(top!.title);
    await paste(alice.browser, 'drops every page');
    // One more paste moves the pages by one: the renamed paste is now the last of page 1, or on page 2.
    const after = (await visitor().get(API.threadsRecent).expect(200)).body as RecentPastesPage;
    const titles = [...after.threads, ...(await page2())].map((c) => c.title);
    expect(titles).toContain('renamed behind its back');
    await visitor().get(API.threadsRecent).query({ cursor: 'not-a-cursor' }).expect(400);
  });
});
