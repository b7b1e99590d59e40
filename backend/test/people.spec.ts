import {
  API,
  MESSAGING_MESSAGES,
  MODERATION_MESSAGES,
  PEOPLE_LIST_MAX,
  type PeopleList,
  peopleListSchema,
  type PersonEntry,
  personEntrySchema,
  publicAuthorSchema,
  TOKEN_MESSAGES,
  type CreatedAccessToken,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { NotificationsProcessor } from '../src/modules/notifications/notifications.processor.js';
import { type Browser, registered, registeredUnverified } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

type Member = Awaited<ReturnType<typeof registered>>;
type List = 'mutes' | 'blocks';

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const NOT_FOUND = { statusCode: 404, message: MODERATION_MESSAGES.userNotFound };
const BLOCKED_YOU = { statusCode: 403, message: MODERATION_MESSAGES.blockedYou };

const one = (list: List, id: number | string) => (list === 'mutes' ? API.userMute(id) : API.userBlock(id));
const all = (list: List) => (list === 'mutes' ? API.userMutes : API.userBlocks);

function parseEntry(body: unknown): PersonEntry {
  const entry = personEntrySchema.strict().parse(body);
  publicAuthorSchema.strict().parse(entry.member);
  return entry;
}

function parseList(body: unknown): PeopleList {
  const list = peopleListSchema.strict().parse(body);
  for (const entry of (body as { members: unknown[] }).members) parseEntry(entry);
  return list;
}

describe('mutes and blocks', () => {
  let t: TestApp;
  let owner: Member;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  let processor: NotificationsProcessor;
  let jobRuns = 0;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registered(t); // the first account: the owner
    alice = await registered(t);
    bob = await registered(t);
    carol = await registered(t);
    processor = t.app.get(NotificationsProcessor);
  });

  afterAll(async () => {
    await t?.close();
  });

  const put = (browser: Browser, list: List, id: number | string) => browser.put(one(list, id));
  async function listOf(browser: Browser, list: List): Promise<number[]> {
    const res = await browser.get(all(list)).expect(200);
    return parseList(res.body).members.map((entry) => entry.member.id);
  }
  async function member(): Promise<Member> {
    return registered(t);
  }

  describe('signed out', () => {
    it.each([
      ['GET', API.userMutes],
      ['GET', API.userBlocks],
      ['PUT', API.userMute(2)],
      ['POST', API.userMute(2)],
      ['DELETE', API.userMute(2)],
      ['PUT', API.userBlock(2)],
      ['POST', API.userBlock(2)],
      ['DELETE', API.userBlock(2)],
    ])('%s %s is a 401', async (method, path) => {
      const browser = t.browser();
      const req =
        method === 'GET'
          ? browser.get(path)
          : method === 'PUT'
            ? browser.put(path)
            : method === 'POST'
              ? browser.post(path)
              : browser.delete(path);
      await req.expect(401, UNAUTHORIZED);
    });

    it('a banned member counts as signed out (401)', async () => {
      const banned = await member();
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await put(banned.browser, 'mutes', alice.user.id).expect(401, UNAUTHORIZED);
      await banned.browser.get(API.userBlocks).expect(401, UNAUTHORIZED);
    });
  });

  describe.each(['mutes', 'blocks'] as const)('the %s list', (list) => {
    it('PUT adds a member: 200 with the entry; again, the same entry; GET lists newest first', async () => {
      const me = await member();
      const first = parseEntry((await put(me.browser, list, alice.user.id).expect(200)).body);
      expect(first.member).toMatchObject({ id: alice.user.id, username: alice.account.username });
      const again = parseEntry((await put(me.browser, list, alice.user.id).expect(200)).body);
      expect(again).toEqual(first);
      await put(me.browser, list, bob.user.id).expect(200);
      const res = await me.browser.get(all(list)).expect(200);
      expect(parseList(res.body).members.map((entry) => entry.member.id)).toEqual([
        bob.user.id,
        alice.user.id,
      ]);
      // The other list is apart, and nobody else's list changed.
      expect(await listOf(me.browser, list === 'mutes' ? 'blocks' : 'mutes')).toEqual([]);
      expect(await listOf(alice.browser, list)).toEqual([]);
    });

    it('POST does what PUT does (200 with the entry, idempotent)', async () => {
      const me = await member();
      const first = parseEntry((await me.browser.post(one(list, carol.user.id)).expect(200)).body);
      expect(first.member.id).toBe(carol.user.id);
      const again = parseEntry((await me.browser.post(one(list, carol.user.id)).expect(200)).body);
      expect(again).toEqual(first);
      expect(await listOf(me.browser, list)).toEqual([carol.user.id]);
    });

    it('DELETE takes the member off: 204, and 204 again when they are not on it', async () => {
      const me = await member();
      await put(me.browser, list, alice.user.id).expect(200);
      await put(me.browser, list, bob.user.id).expect(200);
      await me.browser.delete(one(list, alice.user.id)).expect(204);
      expect(await listOf(me.browser, list)).toEqual([bob.user.id]);
      await me.browser.delete(one(list, alice.user.id)).expect(204);
      await me.browser.delete(one(list, 2_147_483_647)).expect(204);
    });

    it('refuses oneself with 400', async () => {
      const message = list === 'mutes' ? MODERATION_MESSAGES.muteSelf : MODERATION_MESSAGES.blockSelf;
      await put(alice.browser, list, alice.user.id).expect(400, { statusCode: 400, message });
      await alice.browser.post(one(list, alice.user.id)).expect(400, { statusCode: 400, message });
      expect(await listOf(alice.browser, list)).toEqual([]);
    });

    it.each(['2147483647', '0', 'abc', '99999999999'])(
      'is a 404 for a member id %s that names nobody',
      async (id) => {
        await put(alice.browser, list, id).expect(404, NOT_FOUND);
      },
    );

    it('is a 404 for a deleted member, and a deleted member leaves the list', async () => {
      const me = await member();
      const gone = await member();
      await put(me.browser, list, gone.user.id).expect(200);
      await t.dataSource.query('DELETE FROM users WHERE id = $1', [gone.user.id]);
      expect(await listOf(me.browser, list)).toEqual([]);
      await put(me.browser, list, gone.user.id).expect(404, NOT_FOUND);
    });

    it('a member with an unverified address may use it', async () => {
      const unverified = await registeredUnverified(t);
      await put(unverified.browser, list, alice.user.id).expect(200);
      expect(await listOf(unverified.browser, list)).toEqual([alice.user.id]);
    });

    it(`holds at most ${PEOPLE_LIST_MAX} members (400), one already on it stays a 200`, async () => {
      const me = await member();
      const table = list === 'mutes' ? 'member_mutes' : 'member_blocks';
      await t.dataSource.query(
        `WITH u AS (
           INSERT INTO users (username, email, password_hash)
           SELECT 'full_${list}_' || i, 'full_${list}_' || i || '@example.com', 'x'
           FROM generate_series(1, $2::int) i RETURNING id)
         INSERT INTO ${table} (user_id, member_id) SELECT $1, id FROM u`,
        [me.user.id, PEOPLE_LIST_MAX - 1],
      );
      await put(me.browser, list, alice.user.id).expect(200);
      await put(me.browser, list, bob.user.id).expect(400, {
        statusCode: 400,
        message: MODERATION_MESSAGES.listFull,
      });
      await put(me.browser, list, alice.user.id).expect(200);
      expect(await listOf(me.browser, list)).toHaveLength(PEOPLE_LIST_MAX);
      await me.browser.delete(one(list, alice.user.id)).expect(204);
      await put(me.browser, list, bob.user.id).expect(200);
    });
  });

  describe('staff', () => {
    it('cannot be blocked (400): the owner, an admin', async () => {
      const admin = await member();
      await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [admin.user.id]);
      const blockStaff = { statusCode: 400, message: MODERATION_MESSAGES.blockStaff };
      await put(alice.browser, 'blocks', owner.user.id).expect(400, blockStaff);
      await alice.browser.post(API.userBlock(admin.user.id)).expect(400, blockStaff);
      expect(await listOf(alice.browser, 'blocks')).toEqual([]);
    });

    it('can be muted', async () => {
      const me = await member();
      await put(me.browser, 'mutes', owner.user.id).expect(200);
      expect(await listOf(me.browser, 'mutes')).toEqual([owner.user.id]);
    });
  });

  describe('personal access tokens', () => {
    it('read the lists with private:read, and change nothing (403)', async () => {
      const me = await member();
      await put(me.browser, 'mutes', alice.user.id).expect(200);
      const res = await me.browser
        .post(API.userTokens)
        .send({ name: 'people', scopes: ['read', 'private:read', 'pastes:write'] })
        .expect(201);
      const { token } = res.body as CreatedAccessToken;
      const bearer = `Bearer ${token}`;
      const read = await supertest(t.url).get(API.userMutes).set('Authorization', bearer).expect(200);
      expect(parseList(read.body).members.map((entry) => entry.member.id)).toEqual([alice.user.id]);
      for (const req of [
        supertest(t.url).put(API.userMute(bob.user.id)),
        supertest(t.url).post(API.userBlock(bob.user.id)),
        supertest(t.url).delete(API.userMute(alice.user.id)),
      ]) {
        await req
          .set('Authorization', bearer)
          .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.notForTokens });
      }
      expect(await listOf(me.browser, 'mutes')).toEqual([alice.user.id]);
    });
  });

  describe('a block', () => {
    let blocker: Member;
    let blocked: Member;

    beforeAll(async () => {
      blocker = await member();
      blocked = await member();
      await put(blocker.browser, 'blocks', blocked.user.id).expect(200);
    });

    const message = (to: string) => ({ recipientEmail: to, subject: 'Hi', content: 'Hello there' });
    const inboxIds = async (browser: Browser) =>
      (
        (await browser.get(API.messages).expect(200)).body as { messages: Array<{ id: number }> }
      ).messages.map((m) => m.id);

    it("refuses the blocked member's private message by username with 403, and stores nothing", async () => {
      const before = await inboxIds(blocker.browser);
      await blocked.browser
        .post(API.messages)
        .send(message(blocker.account.username))
        .expect(403, BLOCKED_YOU);
      await blocked.browser
        .post(API.messages)
        .send(message(blocker.account.username.toUpperCase()))
        .expect(403, BLOCKED_YOU);
      expect(await inboxIds(blocker.browser)).toEqual(before);
    });

    it('answers a message to the address as for an address of nobody (201), and delivers nothing', async () => {
      const before = await inboxIds(blocker.browser);
      const toBlocker = await blocked.browser
        .post(API.messages)
        .send(message(blocker.account.email))
        .expect(201);
      const toNobody = await blocked.browser
        .post(API.messages)
        .send(message('nobody-here@example.com'))
        .expect(201);
      const shape = (body: Record<string, unknown>) => ({
        ...body,
        id: 0,
        createdAt: '',
        recipientAddress: '',
      });
      expect(shape(toBlocker.body as Record<string, unknown>)).toEqual(
        shape(toNobody.body as Record<string, unknown>),
      );
      expect(toBlocker.body).toMatchObject({ recipient: null, recipientAddress: blocker.account.email });
      expect(await inboxIds(blocker.browser)).toEqual(before);
      const [row] = await t.dataSource.query('SELECT recipient_id FROM private_messages WHERE id = $1', [
        (toBlocker.body as { id: number }).id,
      ]);
      expect(row).toEqual({ recipient_id: null });
    });

    it('leaves other members unaffected: another member messages the blocker, the blocked one others', async () => {
      await carol.browser.post(API.messages).send(message(blocker.account.username)).expect(201);
      await blocked.browser.post(API.messages).send(message(carol.account.username)).expect(201);
      const byAddress = await carol.browser
        .post(API.messages)
        .send(message(blocker.account.email))
        .expect(201);
      expect(await inboxIds(blocker.browser)).toContain((byAddress.body as { id: number }).id);
    });

    it('the blocker may still message the blocked member', async () => {
      await blocker.browser.post(API.messages).send(message(blocked.account.username)).expect(201);
    });

    describe('notifications', () => {
      function runJob(name: 'thread' | 'reply', data: object): Promise<void> {
        return processor.process({ id: `people-${jobRuns++}`, name, data, attemptsMade: 0 });
      }
      async function paste(browser: Browser, title: string, content = 'Some content'): Promise<number> {
        const res = await browser.post(API.threads).send({ title, content }).expect(201);
        return (res.body as { id: number }).id;
      }
      async function reply(browser: Browser, threadId: number, content: string): Promise<number> {
        const res = await browser.post(API.threadReplies(threadId)).send({ content }).expect(201);
        return (res.body as { id: number }).id;
      }
      async function notifiedOf(source: string): Promise<Array<[number, string]>> {
        const rows: Array<{ user_id: number; type: string }> = await t.dataSource.query(
          'SELECT user_id, type FROM notifications WHERE source = $1 ORDER BY id',
          [source],
        );
        return rows.map((row) => [row.user_id, row.type]);
      }

      it('a mention of the blocker in a paste never notifies them; another member mentioned is told', async () => {
        const threadId = await paste(
          blocked.browser,
          'Shout-out',
          `Hey @${blocker.account.username} and @${carol.account.username}`,
        );
        await runJob('thread', { threadId });
        expect(await notifiedOf(`thread:${threadId}`)).toEqual([[carol.user.id, 'mention']]);
      });

      it("a reply by the blocked member to the blocker's paste, mentioning them, tells them nothing", async () => {
        const threadId = await paste(blocker.browser, 'Mine');
        const replyId = await reply(blocked.browser, threadId, `@${blocker.account.username} look`);
        await runJob('reply', { replyId });
        expect(await notifiedOf(`reply:${replyId}`)).toEqual([]);
        // Another member's reply is told as ever (and the blocked member, who replied there and so
        // watches the paste, hears of it as a watcher).
        const other = await reply(carol.browser, threadId, 'A reply');
        await runJob('reply', { replyId: other });
        expect(await notifiedOf(`reply:${other}`)).toEqual([
          [blocker.user.id, 'reply'],
          [blocked.user.id, 'watch'],
        ]);
      });

      it('unblocked, the blocked member reaches the blocker again', async () => {
        const later = await member();
        await put(later.browser, 'blocks', carol.user.id).expect(200);
        await later.browser.delete(API.userBlock(carol.user.id)).expect(204);
        await carol.browser.post(API.messages).send(message(later.account.username)).expect(201);
        const threadId = await paste(carol.browser, 'Hello', `@${later.account.username}`);
        await runJob('thread', { threadId });
        expect(await notifiedOf(`thread:${threadId}`)).toEqual([[later.user.id, 'mention']]);
      });

      it('a blocked member who becomes an admin gets through: messages and mentions', async () => {
        const target = await member();
        const promoted = await member();
        await put(target.browser, 'blocks', promoted.user.id).expect(200);
        await promoted.browser
          .post(API.messages)
          .send(message(target.account.username))
          .expect(403, BLOCKED_YOU);
        await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [promoted.user.id]);
        const sent = await promoted.browser
          .post(API.messages)
          .send(message(target.account.username))
          .expect(201);
        const byAddress = await promoted.browser
          .post(API.messages)
          .send(message(target.account.email))
          .expect(201);
        const inbox = await inboxIds(target.browser);
        expect(inbox).toEqual(
          expect.arrayContaining([(sent.body as { id: number }).id, (byAddress.body as { id: number }).id]),
        );
        const threadId = await paste(
          promoted.browser,
          'Staff notice',
          `@${target.account.username} please read`,
        );
        await runJob('thread', { threadId });
        expect(await notifiedOf(`thread:${threadId}`)).toEqual([[target.user.id, 'mention']]);
      });
    });
  });

  describe('what a blocked member sent before the block', () => {
    const message = (to: string, subject: string) => ({ recipientEmail: to, subject, content: 'Hello' });
    type Box = { messages: Array<{ id: number; isRead: boolean }> };
    const box = async (browser: Browser, path: string) =>
      ((await browser.get(path).expect(200)).body as Box).messages;
    const ids = async (browser: Browser, path: string = API.messages) =>
      (await box(browser, path)).map((m) => m.id);
    const unread = async (browser: Browser) =>
      (await browser.get(API.notificationsUnreadCount).expect(200)).body as number;
    const actors = async (browser: Browser) =>
      (
        (await browser.get(API.notifications).expect(200)).body as {
          notifications: Array<{ actor: { id: number } | null }>;
          unreadCount: number;
        }
      ).notifications.map((n) => n.actor?.id ?? null);
    const send = async (from: Member, to: Member, subject: string) =>
      (
        (await from.browser.post(API.messages).send(message(to.account.username, subject)).expect(201))
          .body as {
          id: number;
        }
      ).id;

    it('leaves the inbox, its notifications and the unread count; unblocking brings the messages back', async () => {
      const reader = await member();
      const pest = await member();
      const friend = await member();
      const fromPest = [await send(pest, reader, 'one'), await send(pest, reader, 'two')];
      const fromFriend = await send(friend, reader, 'three');
      // The notifications come through the outbox.
      await waitFor('three message notifications', async () => (await unread(reader.browser)) === 3);
      expect(await ids(reader.browser)).toEqual([fromFriend, ...fromPest.slice().reverse()]);

      await put(reader.browser, 'blocks', pest.user.id).expect(200);
      expect(await ids(reader.browser)).toEqual([fromFriend]);
      expect(await unread(reader.browser)).toBe(1);
      expect(await actors(reader.browser)).toEqual([friend.user.id]);
      expect(
        ((await reader.browser.get(API.notifications).expect(200)).body as { unreadCount: number })
          .unreadCount,
      ).toBe(1);
      // Reading one by its id is as for a message that is not there.
      await reader.browser
        .patch(API.messageRead(fromPest[0]!))
        .expect(404, { statusCode: 404, message: MESSAGING_MESSAGES.messageNotFound });
      await reader.browser.patch(API.messageRead(fromFriend)).expect(200);
      // The sender's side does not change: both in their sent list, unread.
      const sent = await box(pest.browser, API.messagesSent);
      expect(sent.filter((m) => fromPest.includes(m.id)).map((m) => m.isRead)).toEqual([false, false]);
      // The sent folder of the blocker does not change either.
      const reply = await send(reader, pest, 'go away');
      expect(await ids(reader.browser, API.messagesSent)).toContain(reply);

      await reader.browser.delete(API.userBlock(pest.user.id)).expect(204);
      const back = await box(reader.browser, API.messages);
      expect(back.map((m) => m.id)).toEqual([fromFriend, ...fromPest.slice().reverse()]);
      // Still unread: NEW in the inbox again; their notifications are listed again, read.
      expect(back.filter((m) => fromPest.includes(m.id)).map((m) => m.isRead)).toEqual([false, false]);
      expect((await actors(reader.browser)).sort()).toEqual(
        [pest.user.id, pest.user.id, friend.user.id].sort(),
      );
      expect(await unread(reader.browser)).toBe(0);
      await reader.browser.patch(API.messageRead(fromPest[0]!)).expect(200);
    });

    it('a blocked member who becomes staff is back in the inbox', async () => {
      const reader = await member();
      const later = await member();
      const id = await send(later, reader, 'before');
      await put(reader.browser, 'blocks', later.user.id).expect(200);
      expect(await ids(reader.browser)).not.toContain(id);
      await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [later.user.id]);
      expect(await ids(reader.browser)).toContain(id);
      await reader.browser.patch(API.messageRead(id)).expect(200);
    });
  });

  it('messages refused for other reasons keep their own answers', async () => {
    await alice.browser
      .post(API.messages)
      .send({ recipientEmail: 'no_such_member_here', subject: 'x', content: 'y' })
      .expect(404, { statusCode: 404, message: MESSAGING_MESSAGES.userNotFound });
  });
});
