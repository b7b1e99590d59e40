import {
  API,
  type ChatMessage,
  type CreatedAccessToken,
  FLAG_NOTE_MAX,
  POST_MESSAGES,
  LIVE_EVENT,
  MODERATION_MESSAGES,
  type MyFlag,
  myFlagSchema,
  myFlagsSchema,
  type NotificationsPage,
  type RecentPastesPage,
  silencedMessage,
  type PasteDetail,
  pasteDetailSchema,
  TOKEN_MESSAGES,
  type UserProfile,
  VERIFY_MESSAGES,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { type Browser, registered, registeredUnverified } from './support/accounts.js';
import { expectPasteHidden, visitorOf } from './support/paste-routes.js';
import { connect, liveUser } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

type Member = { browser: Browser; user: { id: number; username: string } };

const NOT_THERE = { statusCode: 404, message: MODERATION_MESSAGES.targetNotFound };
const HIDDEN = { statusCode: 404, message: MODERATION_MESSAGES.pasteHidden };
const bad = (message: string) => ({ statusCode: 400, message });

/** Members' flags: who may flag what, once; and the threshold that hides a post for everyone at once. */
describe('flags', () => {
  let t: TestApp;
  let owner: Member;
  let alice: Member;
  let bob: Member;
  const visitor = () => supertest(t.url);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registered(t);
    alice = await registered(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  async function paste(by: Member, body: Record<string, unknown> = {}): Promise<number> {
    const res = await by.browser
      .post(API.threads)
      .send({ title: `Paste ${Math.random().toString(36).slice(2)}`, content: 'some text', ...body })
      .expect(201);
    return res.body.id as number;
  }

  async function reply(by: Member, threadId: number, content = 'a reply'): Promise<number> {
    return (await by.browser.post(API.threadReplies(threadId)).send({ content }).expect(201)).body
      .id as number;
  }

  async function flag(by: Member, body: Record<string, unknown>, status = 201): Promise<MyFlag> {
    const res = await by.browser.post(API.flags).send({ reason: 'spam', ...body });
    if (res.status !== status) throw new Error(`flag: ${res.status} ${res.text}`);
    return res.body as MyFlag;
  }

  /** `n` fresh verified members, each with no record (weight 1). */
  async function members(n: number): Promise<Member[]> {
    const made: Member[] = [];
    for (let i = 0; i < n; i++) made.push(await registered(t));
    return made;
  }

  async function homeTotal(): Promise<number> {
    const res = await visitor().get(API.threadsRecent).set('Cache-Control', 'no-cache').expect(200);
    return (res.body as RecentPastesPage).total;
  }

  async function profileCount(userId: number): Promise<number> {
    const res = await visitor().get(API.user(userId)).set('Cache-Control', 'no-cache').expect(200);
    return (res.body as UserProfile).threadCount;
  }

  describe('what a flag must say', () => {
    let target: number;
    beforeAll(async () => {
      target = await paste(alice);
    });

    it.each([
      [{ targetType: 'thread', targetId: 1 }, `targetType: ${MODERATION_MESSAGES.targetTypeInvalid}`],
      [{ targetId: 1 }, `targetType: ${MODERATION_MESSAGES.targetTypeInvalid}`],
      [{ targetType: 'paste', targetId: 0 }, `targetId: ${MODERATION_MESSAGES.targetIdInvalid}`],
      [{ targetType: 'paste', targetId: 1.5 }, `targetId: ${MODERATION_MESSAGES.targetIdInvalid}`],
      [{ targetType: 'paste', targetId: '1' }, `targetId: ${MODERATION_MESSAGES.targetIdInvalid}`],
      [{ targetType: 'paste', targetId: 2_147_483_648 }, `targetId: ${MODERATION_MESSAGES.targetIdInvalid}`],
      [{ targetType: 'paste', targetId: 'short-key' }, `targetId: ${MODERATION_MESSAGES.targetIdInvalid}`],
      [{ targetType: 'paste', targetId: null }, `targetId: ${MODERATION_MESSAGES.targetIdInvalid}`],
      [
        { targetType: 'reply', targetId: 'A'.repeat(22) },
        `targetId: ${MODERATION_MESSAGES.keyOnlyForPastes}`,
      ],
      [
        { targetType: 'member', targetId: 'A'.repeat(22) },
        `targetId: ${MODERATION_MESSAGES.keyOnlyForPastes}`,
      ],
      [{ targetType: 'paste', reason: 'ugly' }, `reason: ${MODERATION_MESSAGES.reasonInvalid}`],
      [{ targetType: 'paste', reason: 'other' }, `note: ${MODERATION_MESSAGES.noteRequired}`],
      [{ targetType: 'paste', reason: 'other', note: '   ' }, `note: ${MODERATION_MESSAGES.noteRequired}`],
      [
        { targetType: 'paste', note: 'x'.repeat(FLAG_NOTE_MAX + 1) },
        `note: ${MODERATION_MESSAGES.noteTooLong}`,
      ],
      [{ targetType: 'paste', note: 42 }, `note: ${MODERATION_MESSAGES.noteTooLong}`],
    ])('refuses a flag with a bad field (%#): 400 with its message', async (body, message) => {
      await bob.browser
        .post(API.flags)
        .send({ targetId: target, reason: 'spam', ...body })
        .expect(400, bad(message));
    });

    it('takes every reason, a note of at most 500 characters, and answers the flag (201)', async () => {
      const flagged = await flag(bob, {
        targetType: 'paste',
        targetId: target,
        reason: 'other',
        note: `  ${'n'.repeat(FLAG_NOTE_MAX)}  `,
      });
      expect(myFlagSchema.parse(flagged)).toEqual({
        id: expect.any(Number),
        targetType: 'paste',
        targetId: target,
        reason: 'other',
        note: 'n'.repeat(FLAG_NOTE_MAX),
        status: 'open',
        createdAt: expect.any(String),
      });
      for (const reason of ['abuse', 'secret', 'illegal', 'off-topic'] as const) {
        const other = await paste(alice);
        expect((await flag(bob, { targetType: 'paste', targetId: other, reason })).reason).toBe(reason);
      }
    });

    it('refuses a second flag of the same item by the same member (409)', async () => {
      const other = await paste(alice);
      await flag(owner, { targetType: 'paste', targetId: other });
      await owner.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: other, reason: 'abuse' })
        .expect(409, { statusCode: 409, message: MODERATION_MESSAGES.alreadyFlagged });
      const [row]: Array<{ n: number }> = await t.dataSource.query(
        "SELECT count(*)::int AS n FROM flags WHERE target_type = 'paste' AND target_id = $1",
        [other],
      );
      expect(row!.n).toBe(1);
    });
  });

  describe('who may flag', () => {
    let target: number;
    beforeAll(async () => {
      target = await paste(alice);
    });
    const body = () => ({ targetType: 'paste', targetId: target, reason: 'spam' });

    it('refuses a visitor (401), an unverified member (403), a banned one and a silenced one (403)', async () => {
      await visitor().post(API.flags).set('Origin', t.origin).send(body()).expect(401);
      const unverified = await registeredUnverified(t);
      await unverified.browser
        .post(API.flags)
        .send(body())
        .expect(403, { statusCode: 403, message: VERIFY_MESSAGES.unverified });
      const banned = await registered(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await banned.browser
        .post(API.flags)
        .send(body())
        .expect(403, { statusCode: 403, message: POST_MESSAGES.banned });
      const silenced = await registered(t);
      const [[until]]: [Array<{ until: Date }>, number] = await t.dataSource.query(
        `UPDATE users SET silenced_until = now() + interval '1 day', silence_reason = 'Calm down'
         WHERE id = $1 RETURNING silenced_until AS until`,
        [silenced.user.id],
      );
      await silenced.browser
        .post(API.flags)
        .send(body())
        .expect(403, { statusCode: 403, message: silencedMessage(until!.until, 'Calm down') });
      const [row]: Array<{ n: number }> = await t.dataSource.query(
        "SELECT count(*)::int AS n FROM flags WHERE target_type = 'paste' AND target_id = $1",
        [target],
      );
      expect(row!.n).toBe(0);
    });

    it('refuses a personal access token (403), even one that may write pastes', async () => {
      const res = await bob.browser
        .post(API.userTokens)
        .send({ name: 'flags', scopes: ['pastes:write', 'read', 'private:read'] })
        .expect(201);
      const { token } = res.body as CreatedAccessToken;
      await visitor()
        .post(API.flags)
        .set('Authorization', `Bearer ${token}`)
        .send(body())
        .expect(403, { statusCode: 403, message: TOKEN_MESSAGES.notForTokens });
    });
  });

  describe('what may be flagged', () => {
    it('a paste by its number only while the flagger may read it: not a private, unlisted or deleted one', async () => {
      const secret = await paste(alice, { visibility: 'private' });
      const [row]: Array<{ id: number }> = await t.dataSource.query('SELECT id FROM threads WHERE key = $1', [
        secret,
      ]);
      await bob.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: row!.id, reason: 'spam' })
        .expect(404, NOT_THERE);
      const unlisted = await paste(alice, { visibility: 'unlisted' });
      const [other]: Array<{ id: number }> = await t.dataSource.query(
        'SELECT id FROM threads WHERE key = $1',
        [unlisted],
      );
      await bob.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: other!.id, reason: 'spam' })
        .expect(404, NOT_THERE);
      const gone = await paste(alice);
      await alice.browser.delete(API.thread(gone)).expect(204);
      await bob.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: gone, reason: 'spam' })
        .expect(404, NOT_THERE);
      await bob.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: 2_000_000_000, reason: 'spam' })
        .expect(404, NOT_THERE);
    });

    it('an unlisted paste by its key, named by its key in the answer and the list; once', async () => {
      const unlisted = (await paste(alice, { visibility: 'unlisted' })) as unknown as string;
      expect(typeof unlisted).toBe('string');
      const flagged = await flag(bob, { targetType: 'paste', targetId: unlisted });
      expect(myFlagSchema.parse(flagged)).toMatchObject({
        targetType: 'paste',
        targetId: unlisted,
        status: 'open',
      });
      const mine = myFlagsSchema.parse((await bob.browser.get(API.flagsMine).expect(200)).body);
      expect(mine.flags.find((f) => f.id === flagged.id)?.targetId).toBe(unlisted);
      await bob.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: unlisted, reason: 'abuse' })
        .expect(409, { statusCode: 409, message: MODERATION_MESSAGES.alreadyFlagged });
      // Its author cannot flag it by its key either.
      await alice.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: unlisted, reason: 'spam' })
        .expect(400, bad(MODERATION_MESSAGES.ownPost));
    });

    it("a public paste by its key is the paste's number; another's private paste by its key is not there", async () => {
      // Made public after it was unlisted: it keeps its key, and its number is now its ref.
      const key = (await paste(alice, { visibility: 'unlisted' })) as unknown as string;
      const made = await alice.browser.patch(API.thread(key)).send({ visibility: 'public' }).expect(200);
      const open = (made.body as PasteDetail).id as number;
      expect(typeof open).toBe('number');
      const flagged = await flag(bob, { targetType: 'paste', targetId: key });
      expect(flagged.targetId).toBe(open);
      await bob.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: open, reason: 'spam' })
        .expect(409, { statusCode: 409, message: MODERATION_MESSAGES.alreadyFlagged });
      const secret = (await paste(alice, { visibility: 'private' })) as unknown as string;
      await bob.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: secret, reason: 'spam' })
        .expect(404, NOT_THERE);
      await bob.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: 'B'.repeat(22), reason: 'spam' })
        .expect(404, NOT_THERE);
    });

    it("refuses one's own paste, reply and chat message (400), and oneself", async () => {
      const mine = await paste(alice);
      await alice.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: mine, reason: 'spam' })
        .expect(400, bad(MODERATION_MESSAGES.ownPost));
      const myReply = await reply(alice, mine);
      await alice.browser
        .post(API.flags)
        .send({ targetType: 'reply', targetId: myReply, reason: 'spam' })
        .expect(400, bad(MODERATION_MESSAGES.ownPost));
      const line = (await alice.browser.post(API.chatMessages).send({ content: 'mine' }).expect(201))
        .body as ChatMessage;
      await alice.browser
        .post(API.flags)
        .send({ targetType: 'chat', targetId: line.id, reason: 'spam' })
        .expect(400, bad(MODERATION_MESSAGES.ownPost));
      await alice.browser
        .post(API.flags)
        .send({ targetType: 'member', targetId: alice.user.id, reason: 'abuse' })
        .expect(400, bad(MODERATION_MESSAGES.self));
    });

    it('a reply on a paste the flagger may read, alive; not one deleted or on a private paste', async () => {
      const on = await paste(alice);
      const r = await reply(alice, on);
      expect((await flag(bob, { targetType: 'reply', targetId: r })).targetType).toBe('reply');
      const deleted = await reply(alice, on);
      await alice.browser.delete(API.reply(deleted)).expect(204);
      await bob.browser
        .post(API.flags)
        .send({ targetType: 'reply', targetId: deleted, reason: 'spam' })
        .expect(404, NOT_THERE);
      const secret = await paste(alice, { visibility: 'private' });
      const hiddenReply = await reply(alice, secret as unknown as number);
      await bob.browser
        .post(API.flags)
        .send({ targetType: 'reply', targetId: hiddenReply, reason: 'spam' })
        .expect(404, NOT_THERE);
    });

    it('a chat message; a member; not one that is not there', async () => {
      const line = (await alice.browser.post(API.chatMessages).send({ content: 'buy now' }).expect(201))
        .body as ChatMessage;
      expect((await flag(bob, { targetType: 'chat', targetId: line.id })).targetId).toBe(line.id);
      expect((await flag(bob, { targetType: 'member', targetId: alice.user.id })).targetType).toBe('member');
      for (const targetType of ['chat', 'member', 'message', 'reply']) {
        await bob.browser
          .post(API.flags)
          .send({ targetType, targetId: 2_000_000_000, reason: 'spam' })
          .expect(404, NOT_THERE);
      }
    });

    it('a private message by its recipient only: to its sender and to others it is not there', async () => {
      const sent = await alice.browser
        .post(API.messages)
        .send({ recipientEmail: bob.user.username, subject: 'Deal', content: 'cheap watches' })
        .expect(201);
      const id = sent.body.id as number;
      await alice.browser
        .post(API.flags)
        .send({ targetType: 'message', targetId: id, reason: 'spam' })
        .expect(404, NOT_THERE);
      await owner.browser
        .post(API.flags)
        .send({ targetType: 'message', targetId: id, reason: 'spam' })
        .expect(404, NOT_THERE);
      expect((await flag(bob, { targetType: 'message', targetId: id })).targetType).toBe('message');
    });
  });

  it("lists the member's own flags, newest first, with their status", async () => {
    const carol = await registered(t);
    const first = await flag(carol, { targetType: 'paste', targetId: await paste(alice) });
    const second = await flag(carol, { targetType: 'member', targetId: bob.user.id, reason: 'abuse' });
    const mine = myFlagsSchema.parse((await carol.browser.get(API.flagsMine).expect(200)).body);
    expect(mine.flags.map((f) => f.id)).toEqual([second.id, first.id]);
    expect(mine.flags.every((f) => f.status === 'open')).toBe(true);
    await visitor().get(API.flagsMine).expect(401);
  });

  describe('the threshold', () => {
    it('hides a paste for everyone but its author at once, out of the lists and counts; its author is told', async () => {
      const title = `Spam ${Date.now()}`;
      const id = await paste(alice, { title, content: 'flagwordzebra' });
      const flaggers = await members(3);
      const total = await homeTotal();
      const count = await profileCount(alice.user.id);
      await flag(flaggers[0]!, { targetType: 'paste', targetId: id });
      await flag(flaggers[1]!, { targetType: 'paste', targetId: id });
      // Two of three: still there.
      await visitor().get(API.thread(id)).expect(200);
      await flag(flaggers[2]!, { targetType: 'paste', targetId: id });
      await visitor().get(API.thread(id)).expect(404, HIDDEN);
      await bob.browser.get(API.thread(id)).expect(404, HIDDEN);
      await flaggers[0]!.browser.get(API.thread(id)).expect(404, HIDDEN);
      const own = pasteDetailSchema.parse((await alice.browser.get(API.thread(id)).expect(200)).body);
      expect(own.hidden).toBe(true);
      expect(own.content).toBe('flagwordzebra');
      // A visitor again, after the author's read: the cache never serves the author's view.
      await visitor().get(API.thread(id)).expect(404, HIDDEN);
      expect(await homeTotal()).toBe(total - 1);
      expect(await profileCount(alice.user.id)).toBe(count - 1);
      const walked = { id, key: null, title, authorId: alice.user.id, word: 'flagwordzebra' };
      for (const viewer of [visitorOf(t), { label: 'bob', agent: bob.browser, userId: bob.user.id }]) {
        await expectPasteHidden(walked, viewer, { homeTotal: total - 1 }, { pageMessage: HIDDEN.message });
      }
      const told = await waitFor('the notice to the author', async () => {
        const notes = (await alice.browser.get(API.notifications).expect(200)).body as NotificationsPage;
        return notes.notifications.find((n) => n.type === 'moderation');
      });
      expect(told?.content).toBe(
        `Your paste "${title}" is hidden pending review after flags by members. You can edit it; staff will decide.`,
      );
      expect(told?.threadId).toBe(id);
      // Its author may still edit it; it stays hidden.
      await alice.browser.patch(API.thread(id)).send({ content: 'fixed' }).expect(200);
      await visitor().get(API.thread(id)).expect(404, HIDDEN);
      const [item]: Array<{ hidden: boolean; score: number; author_id: number }> = await t.dataSource.query(
        "SELECT hidden, score, author_id FROM review_items WHERE target_type = 'paste' AND target_id = $1",
        [id],
      );
      expect(item).toEqual({ hidden: true, score: 3, author_id: alice.user.id });
    });

    it("hides a reply as a placeholder for everyone, its versions its author's alone; its author may edit it", async () => {
      const on = await paste(bob);
      const r = await reply(alice, on, 'visit my shop');
      for (const flagger of await members(3)) await flag(flagger, { targetType: 'reply', targetId: r });
      for (const who of [visitor(), bob.browser, alice.browser]) {
        const detail = (await who.get(API.thread(on)).set('Cache-Control', 'no-cache').expect(200))
          .body as PasteDetail;
        const shown = detail.replies.find((x) => x.id === r)!;
        expect(shown).toMatchObject({ hidden: true, content: '', deleted: false });
      }
      await visitor()
        .get(API.replyRevisions(r))
        .expect(404, { statusCode: 404, message: POST_MESSAGES.replyNotFound });
      await bob.browser
        .get(API.replyRevision(r, 1))
        .expect(404, { statusCode: 404, message: POST_MESSAGES.replyNotFound });
      const own = await alice.browser.get(API.replyRevision(r, 1)).expect(200);
      expect(own.body.content).toBe('visit my shop');
      await alice.browser.patch(API.reply(r)).send({ content: 'no shop' }).expect(200);
      const after = (await visitor().get(API.thread(on)).set('Cache-Control', 'no-cache').expect(200))
        .body as PasteDetail;
      expect(after.replies.find((x) => x.id === r)).toMatchObject({ hidden: true, content: '' });
    });

    it('hides a chat message as a placeholder in the history', async () => {
      const line = (await alice.browser.post(API.chatMessages).send({ content: 'spam spam' }).expect(201))
        .body as ChatMessage;
      expect(line.hidden).toBe(false);
      for (const flagger of await members(3)) await flag(flagger, { targetType: 'chat', targetId: line.id });
      for (const who of [bob.browser, alice.browser]) {
        const history = (await who.get(API.chatMessages).expect(200)).body as ChatMessage[];
        expect(history.find((m) => m.id === line.id)).toMatchObject({ hidden: true, content: '' });
      }
    });

    it('tells every chat socket to replace a hidden line, and to put it back when staff disagree', async () => {
      const watcher = await liveUser(t);
      const socket = await connect(t, { cookie: watcher.cookie });
      try {
        const line = (await alice.browser.post(API.chatMessages).send({ content: 'loud line' }).expect(201))
          .body as ChatMessage;
        for (const flagger of await members(3))
          await flag(flagger, { targetType: 'chat', targetId: line.id });
        await socket.next('chat_hidden', (frame) => {
          const event = frame as { type?: string; id?: number };
          return event.type === LIVE_EVENT.chatHidden && event.id === line.id;
        });
        await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [owner.user.id]);
        const [item]: Array<{ id: number }> = await t.dataSource.query(
          "SELECT id FROM review_items WHERE target_type = 'chat' AND target_id = $1",
          [line.id],
        );
        await owner.browser.post(API.adminReviewItem(item!.id)).send({ decision: 'disagree' }).expect(200);
        const shown = await socket.next<{ message: ChatMessage }>('chat_shown', (frame) => {
          const event = frame as { type?: string; message?: ChatMessage };
          return event.type === LIVE_EVENT.chatShown && event.message?.id === line.id;
        });
        expect(shown.message).toMatchObject({ content: 'loud line', hidden: false });
      } finally {
        await socket.close();
      }
    });

    it('never hides a member or a private message: they are queued only', async () => {
      const target = await registered(t);
      for (const flagger of await members(4)) {
        await flag(flagger, { targetType: 'member', targetId: target.user.id, reason: 'abuse' });
      }
      const [item]: Array<{ hidden: boolean; score: number; status: string }> = await t.dataSource.query(
        "SELECT hidden, score, status FROM review_items WHERE target_type = 'member' AND target_id = $1",
        [target.user.id],
      );
      expect(item).toEqual({ hidden: false, score: 4, status: 'open' });
      await visitor().get(API.user(target.user.id)).expect(200);
    });
  });
});

describe('the flag rate limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMITS: 'on', RATE_LIMIT_REGISTER_PER_HOUR: '100', RATE_LIMIT_FLAGS_PER_HOUR: '2' },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('refuses a member past RATE_LIMIT_FLAGS_PER_HOUR with 429 and Retry-After; others still flag', async () => {
    const author = await registered(t);
    const flagger = await registered(t);
    const other = await registered(t);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (
          await author.browser
            .post(API.threads)
            .send({ title: `p${i}`, content: 'x' })
            .expect(201)
        ).body.id as number,
      );
    }
    for (const id of ids.slice(0, 2)) {
      await flagger.browser
        .post(API.flags)
        .send({ targetType: 'paste', targetId: id, reason: 'spam' })
        .expect(201);
    }
    const refused = await flagger.browser
      .post(API.flags)
      .send({ targetType: 'paste', targetId: ids[2], reason: 'spam' })
      .expect(429, { statusCode: 429, message: MODERATION_MESSAGES.flagsRateLimited });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await other.browser
      .post(API.flags)
      .send({ targetType: 'paste', targetId: ids[2], reason: 'spam' })
      .expect(201);
  });
});
