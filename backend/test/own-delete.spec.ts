import {
  API,
  type CreatedAccessToken,
  POST_MESSAGES,
  OWN_POSTS_MESSAGES,
  recentPastesPageSchema,
  REPUTATION,
  searchResultsSchema,
  pasteDetailSchema,
  TOKEN_MESSAGES,
  TRASH_PAGE_SIZE,
  type TrashPage,
  trashPageSchema,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { TrashPurger } from '../src/modules/pastes/trash-purge.js';
import { TrashService } from '../src/modules/pastes/trash.service.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Member = { browser: Browser; user: { id: number; username: string } };

const NOT_YOUR_PASTE = { statusCode: 403, message: OWN_POSTS_MESSAGES.notYourPaste };
const NOT_YOUR_REPLY = { statusCode: 403, message: OWN_POSTS_MESSAGES.notYourReply };
const PASTE_NOT_FOUND = { statusCode: 404, message: POST_MESSAGES.pasteNotFound };
const REPLY_NOT_FOUND = { statusCode: 404, message: POST_MESSAGES.replyNotFound };
const NOT_IN_TRASH = { statusCode: 404, message: OWN_POSTS_MESSAGES.notInTrash };

/** Members delete what they posted; staff see it in the trash for 30 days and may restore it; then it goes. */
describe('deleting your own posts, the trash and its purge', () => {
  let t: TestApp;
  let admin: Member;
  let alice: Member;
  let bob: Member;
  const visitor = () => supertest(t.url);
  let words = 0;
  /** A word no other paste holds, to find a paste by search. */
  const uniqueWord = () => `zebrafish${Date.now().toString(36)}q${++words}`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registered(t); // the first account: owner and admin
    alice = await registered(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  async function paste(browser: Browser, body: Record<string, unknown> = {}): Promise<number | string> {
    const res = await browser
      .post(API.threads)
      .send({ title: 'A paste', content: `text ${uniqueWord()}\n`, ...body })
      .expect(201);
    return res.body.id as number | string;
  }

  async function reply(browser: Browser, id: number | string, parentId?: number): Promise<number> {
    const res = await browser
      .post(API.threadReplies(id))
      .send({ content: `reply ${uniqueWord()}`, ...(parentId ? { parentId } : {}) })
      .expect(201);
    return res.body.id as number;
  }

  async function userRow(id: number) {
    const [row]: Array<{ thread_count: number; reply_count: number; reputation: number }> =
      await t.dataSource.query('SELECT thread_count, reply_count, reputation FROM users WHERE id = $1', [id]);
    return row!;
  }

  async function total(): Promise<number> {
    const [row]: Array<{ n: number }> = await t.dataSource.query(
      'SELECT sum(thread_count)::int AS n FROM forum_stats',
    );
    return row!.n;
  }

  async function ledger(userId: number, reasons: string[]) {
    return (await t.dataSource.query(
      `SELECT points, reason, thread_id, reply_id FROM reputation_ledger
       WHERE user_id = $1 AND reason = ANY ($2) ORDER BY id`,
      [userId, reasons],
    )) as Array<{ points: number; reason: string; thread_id: number | null; reply_id: number | null }>;
  }

  async function token(member: Member, scopes: string[]): Promise<string> {
    const res = await member.browser.post(API.userTokens).send({ name: 'delete', scopes }).expect(201);
    return (res.body as CreatedAccessToken).token;
  }

  async function trash(browser: Browser, cursor?: string): Promise<TrashPage> {
    const res = await browser
      .get(API.adminTrash)
      .query(cursor ? { cursor } : {})
      .expect(200);
    return trashPageSchema.parse(res.body);
  }

  describe('DELETE /api/threads/{id}', () => {
    it('is the author’s: 204; another member 403; a visitor 401', async () => {
      const id = await paste(alice.browser);
      await bob.browser.delete(API.thread(id)).expect(403, NOT_YOUR_PASTE);
      await admin.browser.delete(API.thread(id)).expect(403, NOT_YOUR_PASTE);
      await t.browser().delete(API.thread(id)).expect(401);
      await alice.browser.delete(API.thread(id)).expect(204);
      await alice.browser.delete(API.thread(id)).expect(404, PASTE_NOT_FOUND);
      await alice.browser.delete(API.thread(999_999)).expect(404, PASTE_NOT_FOUND);
      await alice.browser.delete(API.thread('not-a-ref')).expect(404, PASTE_NOT_FOUND);
    });

    it('takes a key; a paste the caller may not read is a 404, not a 403', async () => {
      const key = await paste(alice.browser, { visibility: 'private' });
      expect(typeof key).toBe('string');
      await bob.browser.delete(API.thread(key)).expect(404, PASTE_NOT_FOUND);
      const unlisted = await paste(alice.browser, { visibility: 'unlisted' });
      await bob.browser.delete(API.thread(unlisted)).expect(403, NOT_YOUR_PASTE);
      await alice.browser.delete(API.thread(key)).expect(204);
      await alice.browser.delete(API.thread(unlisted)).expect(204);
      await alice.browser.get(API.thread(key)).expect(404);
    });

    it('takes an access token with pastes:write, and refuses one without', async () => {
      const id = await paste(alice.browser);
      const readOnly = await token(alice, ['read']);
      await visitor()
        .delete(API.thread(id))
        .set('Authorization', `Bearer ${readOnly}`)
        .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.missingScope('pastes:write') });
      const bobs = await token(bob, ['pastes:write']);
      await visitor()
        .delete(API.thread(id))
        .set('Authorization', `Bearer ${bobs}`)
        .expect(403, NOT_YOUR_PASTE);
      const writer = await token(alice, ['pastes:write']);
      await visitor().delete(API.thread(id)).set('Authorization', `Bearer ${writer}`).expect(204);
      await visitor().get(API.thread(id)).expect(404);
    });

    it('leaves every route at once: detail, raw, search, home, profile, versions, replies, votes, edits', async () => {
      const word = uniqueWord();
      const id = (await paste(alice.browser, { content: `findme ${word}\n` })) as number;
      const replyId = await reply(bob.browser, id);
      await alice.browser
        .patch(API.thread(id))
        .send({ content: `edited ${word}\n` })
        .expect(200);
      // Seen everywhere first (and so cached).
      await visitor().get(API.thread(id)).expect(200);
      const found = searchResultsSchema.parse((await visitor().get(API.search).query({ q: word })).body);
      expect(found.threads.map((card) => card.id)).toContain(id);
      const home = recentPastesPageSchema.parse((await visitor().get(API.threadsRecent)).body);
      expect(home.threads.map((card) => card.id)).toContain(id);

      await alice.browser.delete(API.thread(id)).expect(204);

      await visitor().get(API.thread(id)).expect(404, PASTE_NOT_FOUND);
      await alice.browser.get(API.thread(id)).expect(404, PASTE_NOT_FOUND);
      await visitor().get(API.threadRaw(id)).expect(404);
      const after = searchResultsSchema.parse((await visitor().get(API.search).query({ q: word })).body);
      expect(after.threads.map((card) => card.id)).not.toContain(id);
      const homeAfter = recentPastesPageSchema.parse((await visitor().get(API.threadsRecent)).body);
      expect(homeAfter.threads.map((card) => card.id)).not.toContain(id);
      for (const browser of [visitor(), alice.browser]) {
        const profile = await browser.get(API.user(alice.user.id)).expect(200);
        expect(profile.body.recentThreads.map((card: { id: number }) => card.id)).not.toContain(id);
      }
      await visitor().get(API.threadRevisions(id)).expect(404);
      await visitor().get(API.threadRevision(id, 1)).expect(404);
      await visitor().get(API.replyRevisions(replyId)).expect(404);
      await bob.browser.post(API.threadReplies(id)).send({ content: 'late' }).expect(404);
      await bob.browser.post(API.votes).send({ threadId: id, value: 1 }).expect(404);
      await alice.browser.post(API.votes).send({ replyId, value: 1 }).expect(404);
      await alice.browser.patch(API.thread(id)).send({ content: 'again\n' }).expect(404);
      await bob.browser.patch(API.reply(replyId)).send({ content: 'again' }).expect(404);
      await bob.browser.delete(API.reply(replyId)).expect(404, REPLY_NOT_FOUND);
      await admin.browser.post(API.adminThreadPin(id)).expect(404);
    });

    it('moves the counts and gives back the reputation it earned, in one go', async () => {
      const dave = await registered(t);
      const id = (await paste(dave.browser)) as number;
      await reply(bob.browser, id);
      const gone = await reply(bob.browser, id);
      await bob.browser.delete(API.reply(gone)).expect(204);
      await bob.browser.post(API.votes).send({ threadId: id, value: 1 }).expect(200);
      const daveBefore = await userRow(dave.user.id);
      const bobBefore = await userRow(bob.user.id);
      const totalBefore = await total();
      const earned = (await ledger(dave.user.id, ['paste', 'vote'])).filter((row) => row.thread_id === id);
      expect(earned.map((row) => row.points)).toEqual([REPUTATION.thread, REPUTATION.voteReceived]);

      await dave.browser.delete(API.thread(id)).expect(204);

      expect(await total()).toBe(totalBefore - 1);
      const daveAfter = await userRow(dave.user.id);
      expect(daveAfter.thread_count).toBe(daveBefore.thread_count - 1);
      expect(daveAfter.reputation).toBe(daveBefore.reputation - REPUTATION.thread - REPUTATION.voteReceived);
      // Bob's live reply goes with the paste; the one he deleted was counted off already.
      const bobAfter = await userRow(bob.user.id);
      expect(bobAfter.reply_count).toBe(bobBefore.reply_count - 1);
      expect(bobAfter.reputation).toBe(bobBefore.reputation);
      expect((await ledger(dave.user.id, ['post_deleted'])).filter((row) => row.thread_id === id)).toEqual([
        {
          points: -(REPUTATION.thread + REPUTATION.voteReceived),
          reason: 'post_deleted',
          thread_id: id,
          reply_id: null,
        },
      ]);
      // The ledger no longer names the deleted paste.
      const page = await dave.browser.get(API.userReputation(dave.user.id)).expect(200);
      const named = page.body.entries.filter((entry: { threadId: number | null }) => entry.threadId === id);
      expect(named).toEqual([]);
      // A paste that was never listed never counted: deleting it moves no public count.
      const before = await total();
      const unlisted = await paste(dave.browser, { visibility: 'unlisted' });
      const count = (await userRow(dave.user.id)).thread_count;
      await dave.browser.delete(API.thread(unlisted)).expect(204);
      expect(await total()).toBe(before);
      expect((await userRow(dave.user.id)).thread_count).toBe(count);
    });
  });

  describe('DELETE /api/replies/{id}', () => {
    it('is the author’s: 204; another member 403; a visitor 401; no access token', async () => {
      const id = await paste(alice.browser);
      const replyId = await reply(bob.browser, id);
      await alice.browser.delete(API.reply(replyId)).expect(403, NOT_YOUR_REPLY);
      await admin.browser.delete(API.reply(replyId)).expect(403, NOT_YOUR_REPLY);
      await t.browser().delete(API.reply(replyId)).expect(401);
      const writer = await token(bob, ['pastes:write']);
      await visitor()
        .delete(API.reply(replyId))
        .set('Authorization', `Bearer ${writer}`)
        .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.notForTokens });
      await bob.browser.delete(API.reply(replyId)).expect(204);
      await bob.browser.delete(API.reply(replyId)).expect(404, REPLY_NOT_FOUND);
      await bob.browser.delete(API.reply(999_999)).expect(404, REPLY_NOT_FOUND);
      await bob.browser.delete(API.reply('x')).expect(404, REPLY_NOT_FOUND);
    });

    it('leaves a placeholder while replies stand under it, and nothing when none do', async () => {
      const id = await paste(alice.browser);
      const top = await reply(bob.browser, id);
      const under = await reply(alice.browser, id, top);
      const lone = await reply(bob.browser, id);
      const before = pasteDetailSchema.parse((await visitor().get(API.thread(id))).body);
      expect(before.replyCount).toBe(3);

      await alice.browser.post(API.votes).send({ replyId: top, value: 1 }).expect(200);
      await bob.browser.patch(API.reply(top)).send({ content: 'second thoughts' }).expect(200);
      await bob.browser.delete(API.reply(top)).expect(204);
      await bob.browser.delete(API.reply(lone)).expect(204);

      const detail = pasteDetailSchema.parse((await visitor().get(API.thread(id))).body);
      expect(detail.replies.map((r) => r.id)).toEqual([top, under]);
      expect(detail.replies[0]).toMatchObject({
        id: top,
        deleted: true,
        content: '',
        author: null,
        editedAt: null,
        voteScore: 0,
      });
      expect(detail.replies[1]).toMatchObject({ id: under, deleted: false, parentId: top });
      expect(detail.replyCount).toBe(1);
      expect(detail.lastReplyAuthor).toMatchObject({ id: alice.user.id });
      // Its versions, votes and answers are gone with it.
      await visitor().get(API.replyRevisions(top)).expect(404, REPLY_NOT_FOUND);
      await visitor().get(API.replyRevision(top, 1)).expect(404, REPLY_NOT_FOUND);
      await alice.browser.post(API.votes).send({ replyId: top, value: 1 }).expect(404, REPLY_NOT_FOUND);
      await alice.browser
        .post(API.threadReplies(id))
        .send({ content: 'to a ghost', parentId: top })
        .expect(400, { statusCode: 400, message: POST_MESSAGES.parentNotInPaste });
      await bob.browser.patch(API.reply(top)).send({ content: 'back' }).expect(404);

      // The last live reply under it goes: the placeholder goes too.
      await alice.browser.delete(API.reply(under)).expect(204);
      const empty = pasteDetailSchema.parse((await visitor().get(API.thread(id))).body);
      expect(empty).toMatchObject({ replies: [], replyCount: 0, lastReplyAt: null, lastReplyAuthor: null });
    });

    it('moves the counts and gives back the reputation it and its votes earned', async () => {
      const id = await paste(alice.browser);
      const replyId = await reply(bob.browser, id);
      await alice.browser.post(API.votes).send({ replyId, value: 1 }).expect(200);
      const bobBefore = await userRow(bob.user.id);
      await bob.browser.delete(API.reply(replyId)).expect(204);
      const bobAfter = await userRow(bob.user.id);
      expect(bobAfter.reply_count).toBe(bobBefore.reply_count - 1);
      expect(bobAfter.reputation).toBe(bobBefore.reputation - REPUTATION.reply - REPUTATION.voteReceived);
      expect((await ledger(bob.user.id, ['post_deleted'])).filter((row) => row.reply_id === replyId)).toEqual(
        [
          {
            points: -(REPUTATION.reply + REPUTATION.voteReceived),
            reason: 'post_deleted',
            thread_id: id,
            reply_id: replyId,
          },
        ],
      );
    });
  });

  describe('the trash', () => {
    it('is for staff: 403 for members, 401 for visitors, and no restores by them', async () => {
      await alice.browser.get(API.adminTrash).expect(403);
      await visitor().get(API.adminTrash).expect(401);
      const id = await paste(alice.browser);
      await alice.browser.delete(API.thread(id)).expect(204);
      await alice.browser.post(API.adminThreadRestore(id)).expect(403);
      await t.browser().post(API.adminThreadRestore(id)).expect(401);
      await alice.browser.post(API.adminReplyRestore(1)).expect(403);
    });

    it('lists deleted pastes and replies, newest first, with who deleted them', async () => {
      const id = (await paste(alice.browser, { title: 'Trashed paste' })) as number;
      const replyId = await reply(bob.browser, await paste(alice.browser));
      await alice.browser.delete(API.thread(id)).expect(204);
      await bob.browser.delete(API.reply(replyId)).expect(204);
      const { entries } = await trash(admin.browser);
      expect(entries[0]).toMatchObject({
        kind: 'reply',
        id: replyId,
        author: { id: bob.user.id },
        deletedBy: { id: bob.user.id },
      });
      expect(entries[1]).toMatchObject({
        kind: 'paste',
        id,
        threadId: id,
        threadRef: id,
        title: 'Trashed paste',
        author: { id: alice.user.id },
        deletedBy: { id: alice.user.id },
      });
      expect(entries[1]!.excerpt).toMatch(/^text zebrafish/);
      expect(Date.parse(entries[1]!.purgeAt) - Date.parse(entries[1]!.deletedAt)).toBe(30 * 86_400_000);
      await admin.browser.get(API.adminTrash).query({ cursor: 'bogus' }).expect(400);
    });

    it(`pages by keyset, ${TRASH_PAGE_SIZE} at a time, without gaps or repeats`, async () => {
      for (let i = 0; i < TRASH_PAGE_SIZE + 2; i++) {
        await alice.browser.delete(API.thread(await paste(alice.browser))).expect(204);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await trash(admin.browser, cursor);
        expect(page.entries.length).toBeLessThanOrEqual(TRASH_PAGE_SIZE);
        seen.push(...page.entries.map((entry) => `${entry.kind}:${entry.id}`));
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor);
      expect(pages).toBeGreaterThan(1);
      expect(new Set(seen).size).toBe(seen.length);
      const [row]: Array<{ n: number }> = await t.dataSource.query(
        `SELECT ((SELECT count(*) FROM threads WHERE deleted_at > now() - interval '30 days')
           + (SELECT count(*) FROM replies r JOIN threads t ON t.id = r.thread_id
              WHERE r.deleted_at > now() - interval '30 days' AND t.deleted_at IS NULL))::int AS n`,
      );
      expect(seen).toHaveLength(row!.n);
    });

    it('restores a paste: its counts, reputation and lists come back, audit-logged', async () => {
      // A new member: today's cap on pastes still leaves the paste its award.
      const carol = await registered(t);
      const word = uniqueWord();
      const id = (await paste(carol.browser, { content: `restore ${word}\n` })) as number;
      await reply(bob.browser, id);
      await bob.browser.post(API.votes).send({ threadId: id, value: 1 }).expect(200);
      const carolBefore = await userRow(carol.user.id);
      const bobBefore = await userRow(bob.user.id);
      const totalBefore = await total();
      await carol.browser.delete(API.thread(id)).expect(204);
      await visitor().get(API.thread(id)).expect(404);

      await admin.browser
        .post(API.adminThreadRestore(id))
        .expect(200, { message: OWN_POSTS_MESSAGES.pasteRestored });

      expect(await userRow(carol.user.id)).toEqual(carolBefore);
      expect(await userRow(bob.user.id)).toEqual(bobBefore);
      expect(await total()).toBe(totalBefore);
      const detail = pasteDetailSchema.parse((await visitor().get(API.thread(id)).expect(200)).body);
      expect(detail.replies).toHaveLength(1);
      const found = searchResultsSchema.parse((await visitor().get(API.search).query({ q: word })).body);
      expect(found.threads.map((card) => card.id)).toContain(id);
      expect(
        (await ledger(carol.user.id, ['post_deleted', 'post_restored']))
          .filter((row) => row.thread_id === id)
          .map((row) => [row.reason, row.points]),
      ).toEqual([
        ['post_deleted', -(REPUTATION.thread + REPUTATION.voteReceived)],
        ['post_restored', REPUTATION.thread + REPUTATION.voteReceived],
      ]);
      const audit = await admin.browser.get(API.adminAudit).query({ action: 'thread.restore' }).expect(200);
      expect(audit.body.entries[0]).toMatchObject({
        action: 'thread.restore',
        actorId: admin.user.id,
        targetType: 'thread',
        targetId: id,
        targetLabel: 'A paste',
      });
      expect((await trash(admin.browser)).entries.map((e) => `${e.kind}:${e.id}`)).not.toContain(
        `paste:${id}`,
      );
      // Not in the trash (any more, or ever): 404.
      await admin.browser.post(API.adminThreadRestore(id)).expect(404, NOT_IN_TRASH);
      await admin.browser.post(API.adminThreadRestore(999_999)).expect(404, NOT_IN_TRASH);
      await admin.browser.post(API.adminThreadRestore('abc')).expect(404, NOT_IN_TRASH);
      // Deleted again, restored again: the ledger stays the sum.
      await carol.browser.delete(API.thread(id)).expect(204);
      await admin.browser.post(API.adminThreadRestore(id)).expect(200);
      expect(await userRow(carol.user.id)).toEqual(carolBefore);
    });

    it('restores a reply, audit-logged; not while its paste is deleted', async () => {
      const id = await paste(alice.browser);
      const replyId = await reply(bob.browser, id);
      const bobBefore = await userRow(bob.user.id);
      await bob.browser.delete(API.reply(replyId)).expect(204);
      await admin.browser
        .post(API.adminReplyRestore(replyId))
        .expect(200, { message: OWN_POSTS_MESSAGES.replyRestored });
      expect(await userRow(bob.user.id)).toEqual(bobBefore);
      const detail = pasteDetailSchema.parse((await visitor().get(API.thread(id))).body);
      expect(detail.replies).toMatchObject([{ id: replyId, deleted: false, author: { id: bob.user.id } }]);
      expect(detail.replyCount).toBe(1);
      const audit = await admin.browser.get(API.adminAudit).query({ action: 'reply.restore' }).expect(200);
      expect(audit.body.entries[0]).toMatchObject({
        action: 'reply.restore',
        targetType: 'reply',
        targetId: replyId,
      });
      await admin.browser.post(API.adminReplyRestore(replyId)).expect(404, NOT_IN_TRASH);

      await bob.browser.delete(API.reply(replyId)).expect(204);
      await alice.browser.delete(API.thread(id)).expect(204);
      expect((await trash(admin.browser)).entries.map((e) => `${e.kind}:${e.id}`)).not.toContain(
        `reply:${replyId}`,
      );
      await admin.browser.post(API.adminReplyRestore(replyId)).expect(404, NOT_IN_TRASH);
    });

    it('takes the admin’s deletes too (same answers and audit entries), so staff can undo them', async () => {
      const id = (await paste(alice.browser)) as number;
      const top = await reply(bob.browser, id);
      const under = await reply(alice.browser, id, top);
      const other = await reply(admin.browser, id);
      await admin.browser.delete(API.adminReply(top)).expect(200, { message: 'Reply deleted successfully' });
      const detail = pasteDetailSchema.parse((await visitor().get(API.thread(id))).body);
      expect(detail.replies.map((r) => r.id)).toEqual([other]);
      expect(detail.replyCount).toBe(1);
      const reasons = (await admin.browser.get(API.adminAudit).query({ action: 'reply.delete' })).body
        .entries;
      expect(reasons[0]).toMatchObject({ targetType: 'reply', targetId: top });
      // The restore brings back what that delete took: the reply and the one under it.
      await admin.browser.post(API.adminReplyRestore(top)).expect(200);
      const back = pasteDetailSchema.parse((await visitor().get(API.thread(id))).body);
      expect(back.replies.map((r) => r.id)).toEqual([top, under, other]);
      expect(back.replyCount).toBe(3);

      await admin.browser.delete(API.adminThread(id)).expect(200, { message: 'Thread deleted successfully' });
      await visitor().get(API.thread(id)).expect(404);
      const deleted = (await admin.browser.get(API.adminAudit).query({ action: 'thread.delete' })).body
        .entries;
      expect(deleted[0]).toMatchObject({ targetType: 'thread', targetId: id, actorId: admin.user.id });
      const entry = (await trash(admin.browser)).entries.find((e) => e.kind === 'paste' && e.id === id);
      expect(entry).toMatchObject({ deletedBy: { id: admin.user.id }, author: { id: alice.user.id } });
      await admin.browser.delete(API.adminThread(id)).expect(404);
      await admin.browser.post(API.adminThreadRestore(id)).expect(200);
      await visitor().get(API.thread(id)).expect(200);
    });
  });

  describe('TrashService.deletePostsOf (an account deleted with its posts)', () => {
    it('trashes every live paste and reply of the member in one go, counts and reputation with them', async () => {
      const gone = await registered(t);
      const own = (await paste(gone.browser)) as number;
      const hidden = await paste(gone.browser, { visibility: 'private' });
      const host = await paste(alice.browser);
      const theirs = await reply(gone.browser, host);
      const answer = await reply(bob.browser, host, theirs);
      const totalBefore = await total();
      expect(await t.app.get(TrashService).deletePostsOf(gone.user.id, gone.user)).toEqual({
        pastes: 2,
        replies: 1,
      });
      expect(await userRow(gone.user.id)).toMatchObject({ thread_count: 0, reply_count: 0, reputation: 0 });
      expect(await total()).toBe(totalBefore - 1);
      await visitor().get(API.thread(own)).expect(404);
      await gone.browser.get(API.thread(hidden)).expect(404);
      const detail = pasteDetailSchema.parse((await visitor().get(API.thread(host))).body);
      expect(detail.replies.map((r) => [r.id, r.deleted])).toEqual([
        [theirs, true],
        [answer, false],
      ]);
    });
  });

  describe('the purge', () => {
    it('removes for good what was deleted more than 30 days ago, and nothing newer', async () => {
      const old = (await paste(alice.browser)) as number;
      const oldReply = await reply(bob.browser, old);
      await bob.browser.post(API.votes).send({ threadId: old, value: 1 }).expect(200);
      await alice.browser.patch(API.thread(old)).send({ content: 'v2\n' }).expect(200);
      const recent = await paste(alice.browser);
      await alice.browser.delete(API.thread(old)).expect(204);
      await alice.browser.delete(API.thread(recent)).expect(204);
      // A reply deleted long ago with a live answer keeps its place, emptied; a lone one goes.
      const host = await paste(alice.browser);
      const parent = await reply(bob.browser, host);
      const child = await reply(alice.browser, host, parent);
      const lone = await reply(bob.browser, host);
      await bob.browser.patch(API.reply(parent)).send({ content: 'secret edit' }).expect(200);
      await bob.browser.delete(API.reply(parent)).expect(204);
      await bob.browser.delete(API.reply(lone)).expect(204);
      await t.dataSource.query("UPDATE threads SET deleted_at = now() - interval '31 days' WHERE id = $1", [
        old,
      ]);
      await t.dataSource.query(
        "UPDATE replies SET deleted_at = now() - interval '31 days' WHERE id = ANY ($1)",
        [[parent, lone]],
      );
      expect((await trash(admin.browser)).entries.map((e) => `${e.kind}:${e.id}`)).not.toEqual(
        expect.arrayContaining([`paste:${old}`]),
      );
      await admin.browser.post(API.adminThreadRestore(old)).expect(404, NOT_IN_TRASH);
      await admin.browser.post(API.adminReplyRestore(parent)).expect(404, NOT_IN_TRASH);

      const purged = await t.app.get(TrashPurger).purge();
      expect(purged.pastes).toBeGreaterThanOrEqual(1);
      expect(purged.replies).toBeGreaterThanOrEqual(1);
      expect(purged.emptied).toBeGreaterThanOrEqual(1);

      const [left] = await t.dataSource.query(
        `SELECT (SELECT count(*) FROM threads WHERE id = $1)::int AS paste,
           (SELECT count(*) FROM replies WHERE thread_id = $1 OR id = $2)::int AS replies,
           (SELECT count(*) FROM votes WHERE thread_id = $1)::int AS votes,
           (SELECT count(*) FROM thread_revisions WHERE thread_id = $1)::int AS versions,
           (SELECT count(*) FROM threads WHERE id = $3)::int AS recent,
           (SELECT count(*) FROM replies WHERE id = $4)::int AS lone,
           (SELECT content FROM replies WHERE id = $5) AS parent_text,
           (SELECT count(*) FROM reply_revisions WHERE reply_id = $5)::int AS parent_versions`,
        [old, oldReply, recent, lone, parent],
      );
      expect(left).toEqual({
        paste: 0,
        replies: 0,
        votes: 0,
        versions: 0,
        recent: 1,
        lone: 0,
        parent_text: '',
        parent_versions: 0,
      });
      const detail = pasteDetailSchema.parse((await visitor().get(API.thread(host))).body);
      expect(detail.replies).toMatchObject([
        { id: parent, deleted: true, content: '' },
        { id: child, deleted: false },
      ]);
      // Safe to run twice.
      expect(await t.app.get(TrashPurger).purge()).toEqual({ pastes: 0, replies: 0, emptied: 0 });
      // Once its last answer goes and leaves the trash too, the placeholder goes as well.
      await alice.browser.delete(API.reply(child)).expect(204);
      await t.dataSource.query("UPDATE replies SET deleted_at = now() - interval '31 days' WHERE id = $1", [
        child,
      ]);
      await t.app.get(TrashPurger).purge();
      const [gone] = await t.dataSource.query('SELECT count(*)::int AS n FROM replies WHERE id = ANY ($1)', [
        [parent, child],
      ]);
      expect(gone.n).toBe(0);
    });
  });
});
