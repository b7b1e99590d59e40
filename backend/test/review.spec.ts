import {
  API,
  type AuditPage,
  type ChatMessage,
  type CreatedAccessToken,
  POST_MESSAGES,
  LIVE_EVENT,
  MODERATION_MESSAGES,
  type MyFlag,
  myFlagsSchema,
  type NotificationsPage,
  type RecentPastesPage,
  REVIEW_PAGE_SIZE,
  type ReviewItem,
  reviewItemSchema,
  type ReviewPage,
  reviewPageSchema,
  TOKEN_MESSAGES,
  type UserProfile,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { type Browser, registered } from './support/accounts.js';
import { connect, liveUser, type LiveUser } from './support/live.js';
import { waitFor } from './support/wait-for.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Member = { browser: Browser; user: { id: number; username: string } };

const HIDDEN = { statusCode: 404, message: MODERATION_MESSAGES.pasteHidden };
const bad = (message: string) => ({ statusCode: 400, message });

/** The review queue: who may see it, what it shows, and what each decision does. */
describe('the review queue', () => {
  let t: TestApp;
  let owner: LiveUser;
  let admin: Member;
  let alice: Member;
  let bob: Member;
  const visitor = () => supertest(t.url);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await liveUser(t);
    admin = await registered(t);
    await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [admin.user.id]);
    alice = await registered(t);
    bob = await registered(t);
  });

  afterAll(async () => {
    await t.close();
  });

  async function paste(by: Member, title = `Paste ${Math.random().toString(36).slice(2)}`): Promise<number> {
    const res = await by.browser.post(API.threads).send({ title, content: 'buy cheap pills' }).expect(201);
    return res.body.id as number;
  }

  async function flag(by: Member, body: Record<string, unknown>): Promise<MyFlag> {
    const res = await by.browser.post(API.flags).send({ reason: 'spam', ...body });
    if (res.status !== 201) throw new Error(`flag: ${res.status} ${res.text}`);
    return res.body as MyFlag;
  }

  async function members(n: number): Promise<Member[]> {
    const made: Member[] = [];
    for (let i = 0; i < n; i++) made.push(await registered(t));
    return made;
  }

  /** The open item of a target. */
  async function itemOf(targetType: string, targetId: number): Promise<number> {
    const [row]: Array<{ id: number }> = await t.dataSource.query(
      "SELECT id FROM review_items WHERE target_type = $1 AND target_id = $2 AND status = 'open'",
      [targetType, targetId],
    );
    if (!row) throw new Error(`no open item for ${targetType} ${targetId}`);
    return row.id;
  }

  async function queue(query: Record<string, string> = {}): Promise<ReviewPage> {
    return reviewPageSchema.parse((await admin.browser.get(API.adminReview).query(query).expect(200)).body);
  }

  async function decide(itemId: number, body: Record<string, unknown>): Promise<ReviewItem> {
    const res = await admin.browser.post(API.adminReviewItem(itemId)).send(body);
    if (res.status !== 200) throw new Error(`decide: ${res.status} ${res.text}`);
    return reviewItemSchema.parse(res.body);
  }

  /** Waits until `who` has a moderation notification `match` accepts (they come through the outbox). */
  async function told(who: Member, match: (content: string) => boolean): Promise<void> {
    await waitFor('a moderation notification', async () => {
      const page = (await who.browser.get(API.notifications).expect(200)).body as NotificationsPage;
      return page.notifications.some((n) => n.type === 'moderation' && match(n.content));
    });
  }

  async function homeTotal(): Promise<number> {
    const res = await visitor().get(API.threadsRecent).set('Cache-Control', 'no-cache').expect(200);
    return (res.body as RecentPastesPage).total;
  }

  async function profileCount(userId: number): Promise<number> {
    const res = await visitor().get(API.user(userId)).set('Cache-Control', 'no-cache').expect(200);
    return (res.body as UserProfile).threadCount;
  }

  /** A paste hidden by three fresh members' flags; its item and flaggers. */
  async function hiddenPaste(title?: string): Promise<{ id: number; item: number; flaggers: Member[] }> {
    const id = await paste(alice, title);
    const flaggers = await members(3);
    for (const flagger of flaggers) await flag(flagger, { targetType: 'paste', targetId: id });
    await visitor().get(API.thread(id)).expect(404, HIDDEN);
    return { id, item: await itemOf('paste', id), flaggers };
  }

  describe('who may use it', () => {
    it('refuses a visitor (401), a member (403) and a token, even an admin’s (403)', async () => {
      const item = (await hiddenPaste()).item;
      await visitor().get(API.adminReview).expect(401);
      await visitor().get(API.adminReviewCount).expect(401);
      await visitor()
        .post(API.adminReviewItem(item))
        .set('Origin', t.origin)
        .send({ decision: 'agree' })
        .expect(401);
      const denied = { statusCode: 403, message: POST_MESSAGES.adminRequired };
      await bob.browser.get(API.adminReview).expect(403, denied);
      await bob.browser.get(API.adminReviewCount).expect(403, denied);
      await bob.browser.post(API.adminReviewItem(item)).send({ decision: 'agree' }).expect(403, denied);
      const { token } = (
        await admin.browser
          .post(API.userTokens)
          .send({ name: 'review', scopes: ['read', 'private:read', 'pastes:write'] })
          .expect(201)
      ).body as CreatedAccessToken;
      const tokenDenied = { statusCode: 403, message: TOKEN_MESSAGES.notForTokens };
      await visitor().get(API.adminReview).set('Authorization', `Bearer ${token}`).expect(403, tokenDenied);
      await visitor()
        .post(API.adminReviewItem(item))
        .set('Authorization', `Bearer ${token}`)
        .send({ decision: 'agree' })
        .expect(403, tokenDenied);
      // Nothing was decided.
      const [row]: Array<{ status: string }> = await t.dataSource.query(
        'SELECT status FROM review_items WHERE id = $1',
        [item],
      );
      expect(row!.status).toBe('open');
    });
  });

  describe('what it shows', () => {
    it('each item rendered as members see it, its author and their history, its flags', async () => {
      const title = `Rendered ${Date.now()}`;
      const { id, item, flaggers } = await hiddenPaste(title);
      await t.dataSource.query(
        "INSERT INTO suspensions (user_id, kind, reason, ends_at) VALUES ($1, 'silence', 'earlier', now())",
        [alice.user.id],
      );
      const page = await queue({ targetType: 'paste' });
      const shown = page.items.find((x) => x.id === item)!;
      expect(shown).toMatchObject({
        kind: 'flagged',
        targetType: 'paste',
        targetId: id,
        status: 'open',
        score: 3,
        hidden: true,
        signals: [],
        target: { title, content: 'buy cheap pills', language: null, threadRef: id, gone: false },
        author: { id: alice.user.id, username: alice.user.username },
        history: { suspensions: 1, isBanned: false, bannedUntil: null, silencedUntil: null },
      });
      // Every paste of hers not deleted, the hidden ones included (her profile counts only the others).
      const [counts]: Array<{ pastes: number; replies: number }> = await t.dataSource.query(
        `SELECT (SELECT count(*)::int FROM threads WHERE author_id = $1 AND deleted_at IS NULL) AS pastes,
           (SELECT count(*)::int FROM replies WHERE author_id = $1 AND deleted_at IS NULL) AS replies`,
        [alice.user.id],
      );
      expect(counts!.pastes).toBeGreaterThan(0);
      expect(shown.history).toMatchObject({ pastes: counts!.pastes, replies: counts!.replies });
      expect(shown.flags.map((f) => f.flagger?.id)).toEqual(flaggers.map((f) => f.user.id));
      expect(shown.flags.every((f) => f.reason === 'spam' && f.weight === 1)).toBe(true);
      expect(page.openCount).toBe((await admin.browser.get(API.adminReviewCount).expect(200)).body as number);
    });

    it("counts the author's posts hidden, private and held too, but not deleted ones", async () => {
      const carol = await registered(t);
      const only = await paste(carol);
      for (const flagger of await members(3)) await flag(flagger, { targetType: 'paste', targetId: only });
      await visitor().get(API.thread(only)).expect(404, HIDDEN);
      const historyOf = async () =>
        (await queue()).items.find((x) => x.author?.id === carol.user.id)!.history;
      // Her only paste is the hidden one: it counts.
      expect(await historyOf()).toMatchObject({ pastes: 1, replies: 0 });
      expect(await profileCount(carol.user.id)).toBe(0);

      const on = await paste(bob);
      const reply = (await carol.browser.post(API.threadReplies(on)).send({ content: 'a reply' }).expect(201))
        .body.id as number;
      await t.dataSource.query('UPDATE replies SET hidden_at = now() WHERE id = $1', [reply]);
      await carol.browser
        .post(API.threads)
        .send({ title: 'Mine', content: 'private text', visibility: 'private' })
        .expect(201);
      const gone = await paste(carol);
      await carol.browser.delete(API.thread(gone)).expect(204);
      const goneReply = (
        await carol.browser.post(API.threadReplies(on)).send({ content: 'deleted reply' }).expect(201)
      ).body.id as number;
      await t.dataSource.query('UPDATE replies SET deleted_at = now() WHERE id = $1', [goneReply]);
      const payload = (threadRef: number | null) =>
        JSON.stringify({
          title: 'Held',
          content: 'held text',
          language: null,
          threadRef,
          parentId: null,
          request: {},
        });
      await t.dataSource.query(
        `INSERT INTO review_items (kind, target_type, author_id, signals, payload)
         VALUES ('held', 'paste', $1, '{first-posts}', $2::jsonb), ('held', 'reply', $1, '{burst}', $3::jsonb),
           ('held', 'paste', $1, '{burst}', $2::jsonb)`,
        [carol.user.id, payload(null), payload(on)],
      );
      await t.dataSource.query(
        "UPDATE review_items SET status = 'rejected' WHERE id = (SELECT max(id) FROM review_items WHERE author_id = $1 AND kind = 'held')",
        [carol.user.id],
      );
      // Pastes: the hidden one, the private one, the held one; replies: the hidden one, the held one.
      expect(await historyOf()).toMatchObject({ pastes: 3, replies: 2 });
      await t.dataSource.query("DELETE FROM review_items WHERE author_id = $1 AND kind = 'held'", [
        carol.user.id,
      ]);
    });

    it('renders replies, chat and private messages, and members; one deleted since is gone', async () => {
      const on = await paste(bob);
      const reply = (
        await alice.browser.post(API.threadReplies(on)).send({ content: 'my reply' }).expect(201)
      ).body.id as number;
      const line = (await alice.browser.post(API.chatMessages).send({ content: 'chat line' }).expect(201))
        .body as ChatMessage;
      const message = (
        await alice.browser
          .post(API.messages)
          .send({ recipientEmail: bob.user.username, subject: 'Hello', content: 'pm text' })
          .expect(201)
      ).body.id as number;
      await t.dataSource.query("UPDATE users SET bio = 'I sell things' WHERE id = $1", [alice.user.id]);
      await flag(bob, { targetType: 'reply', targetId: reply });
      await flag(bob, { targetType: 'chat', targetId: line.id });
      await flag(bob, { targetType: 'message', targetId: message });
      await flag(bob, { targetType: 'member', targetId: alice.user.id, reason: 'abuse' });
      const page = await queue();
      const of = (type: string, targetId: number) =>
        page.items.find((x) => x.targetType === type && x.targetId === targetId)!;
      expect(of('reply', reply).target).toMatchObject({ content: 'my reply', threadRef: on, gone: false });
      expect(of('chat', line.id).target).toMatchObject({ content: 'chat line', title: null });
      expect(of('message', message).target).toMatchObject({ title: 'Hello', content: 'pm text' });
      expect(of('member', alice.user.id).target).toMatchObject({
        title: alice.user.username,
        content: 'I sell things',
      });
      await alice.browser.delete(API.reply(reply)).expect(204);
      expect(
        (await queue({ targetType: 'reply' })).items.find((x) => x.targetId === reply)!.target.gone,
      ).toBe(true);
    });

    it('filters by kind, target type and reason', async () => {
      const id = await paste(alice);
      await flag(bob, { targetType: 'paste', targetId: id, reason: 'secret' });
      const bySecret = await queue({ reason: 'secret' });
      expect(bySecret.items.map((x) => x.targetId)).toEqual([id]);
      expect((await queue({ targetType: 'member' })).items.every((x) => x.targetType === 'member')).toBe(
        true,
      );
      expect((await queue({ kind: 'held' })).items).toEqual([]);
      expect((await queue({ kind: 'flagged' })).items.length).toBeGreaterThan(0);
      await admin.browser
        .get(API.adminReview)
        .query({ kind: 'odd' })
        .expect(400, bad('Kind must be one of: flagged, held'));
      await admin.browser
        .get(API.adminReview)
        .query({ reason: 'odd' })
        .expect(400, bad(MODERATION_MESSAGES.reasonInvalid));
      await admin.browser
        .get(API.adminReview)
        .query({ targetType: 'odd' })
        .expect(400, bad(MODERATION_MESSAGES.targetTypeInvalid));
      await admin.browser.get(API.adminReview).query({ cursor: 'nope' }).expect(400, bad('Invalid cursor'));
    });

    it('pages newest first by the last flag, by keyset', async () => {
      const flagger = await registered(t);
      const ids: number[] = [];
      for (let i = 0; i < REVIEW_PAGE_SIZE + 2; i++) {
        const id = await paste(alice);
        ids.push(id);
        await flag(flagger, { targetType: 'paste', targetId: id, reason: 'off-topic' });
      }
      // A new flag on the first moves it to the top.
      await flag(bob, { targetType: 'paste', targetId: ids[0]!, reason: 'off-topic' });
      const first = await queue({ reason: 'off-topic' });
      expect(first.items).toHaveLength(REVIEW_PAGE_SIZE);
      expect(first.items[0]!.targetId).toBe(ids[0]);
      const second = await queue({ reason: 'off-topic', cursor: first.nextCursor! });
      expect(second.nextCursor).toBeNull();
      const all = [...first.items, ...second.items].map((x) => x.targetId);
      expect(all).toEqual([ids[0], ...ids.slice(1).reverse()]);
    });

    it('counts open items as a bare number, and tells every admin’s sockets when it moves', async () => {
      const socket = await connect(t, { cookie: owner.cookie });
      try {
        const before = (await admin.browser.get(API.adminReviewCount).expect(200)).body as number;
        await flag(bob, { targetType: 'paste', targetId: await paste(alice) });
        const after = (await admin.browser.get(API.adminReviewCount).expect(200)).body as number;
        expect(after).toBe(before + 1);
        await socket.next('review count', (frame) => {
          const event = frame as { type?: string; count?: number };
          return event.type === LIVE_EVENT.reviewCount && event.count === after;
        });
      } finally {
        await socket.close();
      }
    });
  });

  describe('decisions', () => {
    it('refuses what is not an item (404), a bad decision (400), the wrong kind (400), and a second decision (409)', async () => {
      const { item } = await hiddenPaste();
      const notFound = { statusCode: 404, message: MODERATION_MESSAGES.itemNotFound };
      await admin.browser
        .post(API.adminReviewItem(2_000_000_000))
        .send({ decision: 'agree' })
        .expect(404, notFound);
      await admin.browser.post(API.adminReviewItem('abc')).send({ decision: 'agree' }).expect(404, notFound);
      await admin.browser
        .post(API.adminReviewItem(item))
        .send({ decision: 'maybe' })
        .expect(400, bad(`decision: ${MODERATION_MESSAGES.decisionInvalid}`));
      await admin.browser
        .post(API.adminReviewItem(item))
        .send({ decision: 'agree', suspendDays: 0 })
        .expect(400, bad(`suspendDays: ${MODERATION_MESSAGES.daysInvalid}`));
      await admin.browser
        .post(API.adminReviewItem(item))
        .send({ decision: 'agree', deletePost: 'yes' })
        .expect(400, bad(`deletePost: ${MODERATION_MESSAGES.deletePostInvalid}`));
      await admin.browser
        .post(API.adminReviewItem(item))
        .send({ decision: 'approve' })
        .expect(400, bad(MODERATION_MESSAGES.decisionForHeld));
      const [[held]]: [Array<{ id: number }>, number] = [
        await t.dataSource.query(
          `INSERT INTO review_items (kind, target_type, author_id, signals, payload)
           VALUES ('held', 'paste', $1, '{first-posts}', $2::jsonb) RETURNING id`,
          [
            alice.user.id,
            JSON.stringify({
              title: 'Held',
              content: 'held text',
              language: null,
              threadRef: null,
              parentId: null,
              request: {},
            }),
          ],
        ),
        0,
      ];
      await admin.browser
        .post(API.adminReviewItem(held!.id))
        .send({ decision: 'agree' })
        .expect(400, bad(MODERATION_MESSAGES.decisionForFlags));
      const heldShown = (await queue({ kind: 'held' })).items.find((x) => x.id === held!.id)!;
      expect(heldShown.target).toMatchObject({ title: 'Held', content: 'held text', gone: false });
      expect(heldShown.signals).toEqual(['first-posts']);
      await t.dataSource.query('DELETE FROM review_items WHERE id = $1', [held!.id]);

      // Two admins at once: one wins, the other is told it was decided.
      const results = await Promise.all([
        admin.browser.post(API.adminReviewItem(item)).send({ decision: 'disagree' }),
        owner.browser.post(API.adminReviewItem(item)).send({ decision: 'agree' }),
      ]);
      expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
      const lost = results.find((res) => res.status === 409)!;
      expect(lost.body).toEqual({ statusCode: 409, message: MODERATION_MESSAGES.itemDecided });
      await admin.browser
        .post(API.adminReviewItem(item))
        .send({ decision: 'ignore' })
        .expect(409, { statusCode: 409, message: MODERATION_MESSAGES.itemDecided });
      const audited: Array<{ n: number }> = await t.dataSource.query(
        "SELECT count(*)::int AS n FROM audit_log WHERE action LIKE 'review.%' AND before->>'item' = $1",
        [String(item)],
      );
      expect(audited[0]!.n).toBe(1);
    });

    it('AGREE keeps the paste hidden, tells each flagger and the author, and is in the audit log', async () => {
      const title = `Agreed ${Date.now()}`;
      const { id, item, flaggers } = await hiddenPaste(title);
      const decided = await decide(item, { decision: 'agree' });
      expect(decided).toMatchObject({ status: 'agreed', hidden: true });
      await visitor().get(API.thread(id)).expect(404, HIDDEN);
      for (const flagger of flaggers) {
        await told(flagger, (n) => n === `Staff agreed with your flag on the paste "${title}". Thank you.`);
        const mine = myFlagsSchema.parse((await flagger.browser.get(API.flagsMine).expect(200)).body);
        expect(mine.flags.find((f) => f.targetId === id)!.status).toBe('agreed');
      }
      await told(
        alice,
        (n) =>
          n ===
          `Staff agreed with members' flags: your paste "${title}" stays hidden. You can still edit it.`,
      );
      const audit = (await admin.browser.get(API.adminAudit).query({ action: 'review.agree' }).expect(200))
        .body as AuditPage;
      expect(audit.entries[0]).toMatchObject({
        action: 'review.agree',
        actorId: admin.user.id,
        targetType: 'thread',
        targetId: id,
        targetLabel: title,
      });
      // Decided: out of the queue.
      expect((await queue()).items.some((x) => x.id === item)).toBe(false);
    });

    it('AGREE with deletePost deletes the paste (audited), and the item shows it gone', async () => {
      const { id, item } = await hiddenPaste();
      const decided = await decide(item, { decision: 'agree', deletePost: true });
      expect(decided.target.gone).toBe(true);
      await alice.browser
        .get(API.thread(id))
        .expect(404, { statusCode: 404, message: POST_MESSAGES.pasteNotFound });
      const [row]: Array<{ n: number }> = await t.dataSource.query(
        "SELECT count(*)::int AS n FROM audit_log WHERE action = 'thread.delete' AND target_id = $1",
        [id],
      );
      expect(row!.n).toBe(1);
      await told(alice, (n) => n.startsWith('Staff deleted your paste'));
    });

    it('AGREE with deletePost deletes a chat message', async () => {
      const line = (await alice.browser.post(API.chatMessages).send({ content: 'delete me' }).expect(201))
        .body as ChatMessage;
      for (const flagger of await members(3)) await flag(flagger, { targetType: 'chat', targetId: line.id });
      await decide(await itemOf('chat', line.id), { decision: 'agree', deletePost: true });
      const history = (await bob.browser.get(API.chatMessages).expect(200)).body as ChatMessage[];
      expect(history.some((m) => m.id === line.id)).toBe(false);
    });

    it('AGREE with suspendDays suspends the author for that long, with the reason; the history counts it', async () => {
      const spammer = await registered(t);
      const id = await paste(spammer);
      await flag(bob, { targetType: 'paste', targetId: id });
      const decided = await decide(await itemOf('paste', id), {
        decision: 'agree',
        suspendDays: 1,
        reason: 'Spam',
      });
      expect(decided.history).toMatchObject({ isBanned: true, suspensions: 1 });
      const [row]: Array<{ is_banned: boolean; ban_reason: string; days: number }> = await t.dataSource.query(
        `SELECT is_banned, ban_reason, round(extract(epoch FROM banned_until - now()) / 86400)::int AS days
         FROM users WHERE id = $1`,
        [spammer.user.id],
      );
      expect(row).toEqual({ is_banned: true, ban_reason: 'Spam', days: 1 });
    });

    it('AGREE with silenceDays silences the author (a reason is required); a refused suspension decides nothing', async () => {
      const loud = await registered(t);
      const line = (await loud.browser.post(API.chatMessages).send({ content: 'shouting' }).expect(201))
        .body as ChatMessage;
      await flag(bob, { targetType: 'chat', targetId: line.id, reason: 'abuse' });
      const item = await itemOf('chat', line.id);
      await admin.browser
        .post(API.adminReviewItem(item))
        .send({ decision: 'agree', silenceDays: 3 })
        .expect(400, bad(MODERATION_MESSAGES.reasonRequired));
      const decided = await decide(item, { decision: 'agree', silenceDays: 3, reason: 'Be civil' });
      expect(decided.history!.silencedUntil).not.toBeNull();
      await loud.browser.post(API.chatMessages).send({ content: 'again' }).expect(403);
      // An admin's account: only the owner may suspend it; the refusal leaves the item open.
      const staff = await registered(t);
      await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [staff.user.id]);
      const id = await paste(staff);
      await flag(bob, { targetType: 'paste', targetId: id });
      const staffItem = await itemOf('paste', id);
      await admin.browser
        .post(API.adminReviewItem(staffItem))
        .send({ decision: 'agree', suspendDays: 1, reason: 'no' })
        .expect(403);
      const [row]: Array<{ status: string }> = await t.dataSource.query(
        'SELECT status FROM review_items WHERE id = $1',
        [staffItem],
      );
      expect(row!.status).toBe('open');
    });

    it('AGREE on a member or a private message hides nothing; the audit names the user or the message', async () => {
      const rude = await registered(t);
      const message = (
        await rude.browser
          .post(API.messages)
          .send({ recipientEmail: bob.user.username, subject: 'Rude', content: 'rude words' })
          .expect(201)
      ).body.id as number;
      await flag(bob, { targetType: 'message', targetId: message, reason: 'abuse' });
      await flag(bob, { targetType: 'member', targetId: rude.user.id, reason: 'abuse' });
      expect(
        await decide(await itemOf('message', message), { decision: 'agree', deletePost: true }),
      ).toMatchObject({ status: 'agreed', hidden: false, target: { gone: false, content: 'rude words' } });
      await decide(await itemOf('member', rude.user.id), { decision: 'agree' });
      const rows: Array<{ target_type: string; target_id: number; target_label: string }> =
        await t.dataSource.query(
          `SELECT target_type, target_id, target_label FROM audit_log
           WHERE action = 'review.agree' AND target_type IN ('message', 'user') ORDER BY id`,
        );
      expect(rows).toEqual([
        { target_type: 'message', target_id: message, target_label: 'Rude' },
        { target_type: 'user', target_id: rude.user.id, target_label: rude.user.username },
      ]);
    });

    it('DISAGREE shows the paste again for everyone, back in the counts; flaggers and author are told', async () => {
      const title = `Restored ${Date.now()}`;
      const before = await homeTotal();
      const pastes = await profileCount(alice.user.id);
      const { id, item, flaggers } = await hiddenPaste(title);
      expect(await homeTotal()).toBe(before);
      expect(await profileCount(alice.user.id)).toBe(pastes);
      const decided = await decide(item, { decision: 'disagree' });
      expect(decided).toMatchObject({ status: 'disagreed', hidden: false });
      await visitor().get(API.thread(id)).expect(200);
      expect(await homeTotal()).toBe(before + 1);
      expect(await profileCount(alice.user.id)).toBe(pastes + 1);
      await told(
        flaggers[0]!,
        (n) => n === `Staff reviewed your flag on the paste "${title}" and found nothing wrong.`,
      );
      await told(alice, (n) => n === `Staff reviewed your paste "${title}": it is shown again.`);
      const mine = myFlagsSchema.parse((await flaggers[0]!.browser.get(API.flagsMine).expect(200)).body);
      expect(mine.flags[0]!.status).toBe('disagreed');
    });

    it('IGNORE clears the flags and shows a hidden reply again', async () => {
      const on = await paste(bob);
      const reply = (
        await alice.browser.post(API.threadReplies(on)).send({ content: 'fine reply' }).expect(201)
      ).body.id as number;
      const flaggers = await members(3);
      for (const flagger of flaggers) await flag(flagger, { targetType: 'reply', targetId: reply });
      await decide(await itemOf('reply', reply), { decision: 'ignore' });
      const detail = (await visitor().get(API.thread(on)).expect(200)).body as {
        replies: Array<{ id: number; content: string; hidden: boolean }>;
      };
      expect(detail.replies.find((r) => r.id === reply)).toMatchObject({
        hidden: false,
        content: 'fine reply',
      });
      await told(flaggers[0]!, (n) => n.includes('took no action'));
    });
  });

  describe("a flagger's record", () => {
    /** A flagger whose `agreed` flags staff agreed with and `disagreed` they disagreed with. */
    async function flaggerWith(agreed: number, disagreed: number): Promise<Member> {
      const flagger = await registered(t);
      for (const decision of [
        ...Array<string>(agreed).fill('agree'),
        ...Array<string>(disagreed).fill('disagree'),
      ]) {
        const id = await paste(alice);
        await flag(flagger, { targetType: 'paste', targetId: id });
        await decide(await itemOf('paste', id), { decision });
      }
      return flagger;
    }

    it('an agreed flagger counts more: two flags hide what takes three members with no record', async () => {
      const trusted = await flaggerWith(2, 0);
      const id = await paste(alice);
      const weighed = await flag(trusted, { targetType: 'paste', targetId: id });
      expect(weighed.status).toBe('open');
      const [row]: Array<{ weight: number }> = await t.dataSource.query(
        'SELECT weight FROM flags WHERE id = $1',
        [weighed.id],
      );
      expect(row!.weight).toBe(2);
      await visitor().get(API.thread(id)).expect(200);
      await flag((await members(1))[0]!, { targetType: 'paste', targetId: id });
      await visitor().get(API.thread(id)).expect(404, HIDDEN);
    });

    it('a rejected flagger counts less: with two members, it takes a third', async () => {
      const doubted = await flaggerWith(0, 2);
      const id = await paste(alice);
      await flag(doubted, { targetType: 'paste', targetId: id });
      const others = await members(3);
      await flag(others[0]!, { targetType: 'paste', targetId: id });
      await flag(others[1]!, { targetType: 'paste', targetId: id });
      // 0.5 + 1 + 1 = 2.5 < 3.
      await visitor().get(API.thread(id)).expect(200);
      await flag(others[2]!, { targetType: 'paste', targetId: id });
      await visitor().get(API.thread(id)).expect(404, HIDDEN);
      const shown = (await queue({ targetType: 'paste' })).items.find((x) => x.targetId === id)!;
      expect(shown.flags.map((f) => f.weight)).toEqual([0.5, 1, 1, 1]);
      expect(shown.score).toBe(3.5);
    });
  });
});
