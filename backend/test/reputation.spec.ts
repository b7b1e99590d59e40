import {
  API,
  POST_MESSAGES,
  REPUTATION,
  REPUTATION_LEDGER_PAGE_SIZE,
  REPUTATION_MESSAGES,
  type ReputationEntry,
  type ReputationLedgerPage,
  reputationLedgerPageSchema,
  userProfileSchema,
} from '@termpaste/contracts';
import supertest from 'supertest';
import { ReputationLedger1796400000000 } from '../src/infra/database/migrations/1796400000000-reputation-ledger.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Member = Awaited<ReturnType<typeof registered>>;

/** Small caps, so a test reaches them in a few writes: 2 pastes, 2 replies, 3 chat messages, 2 up-votes. */
const CAPS = { paste: 10, reply: 4, chat: 3, vote: 2 };

describe('reputation ledger and daily caps', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        REPUTATION_DAILY_CAP_PASTES: String(CAPS.paste),
        REPUTATION_DAILY_CAP_REPLIES: String(CAPS.reply),
        REPUTATION_DAILY_CAP_CHAT: String(CAPS.chat),
        REPUTATION_DAILY_CAP_VOTES: String(CAPS.vote),
      },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function paste(member: Member, title = 'A paste'): Promise<number> {
    const res = await member.browser.post(API.threads).send({ title, content: 'content' }).expect(201);
    return (res.body as { id: number }).id;
  }

  async function reply(member: Member, threadId: number): Promise<number> {
    const res = await member.browser
      .post(API.threadReplies(threadId))
      .send({ content: 'a reply' })
      .expect(201);
    return (res.body as { id: number }).id;
  }

  async function vote(member: Member, target: { threadId: number } | { replyId: number }, value: 1 | -1) {
    const res = await member.browser
      .post(API.votes)
      .send({ ...target, value })
      .expect(200);
    return res.body as { value: 1 | -1 | null };
  }

  async function ledger(browser: Browser, userId: number, cursor?: string): Promise<ReputationLedgerPage> {
    const res = await browser
      .get(API.userReputation(userId))
      .query(cursor ? { cursor } : {})
      .expect(200);
    return reputationLedgerPageSchema.strict().parse(res.body);
  }

  /** The whole ledger, every page. */
  async function fullLedger(member: Member): Promise<ReputationEntry[]> {
    const entries: ReputationEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await ledger(member.browser, member.user.id, cursor);
      entries.push(...page.entries);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return entries;
  }

  /** The stored reputation and the sum of the member's ledger rows. */
  async function balance(userId: number): Promise<{ reputation: number; sum: number }> {
    const [row]: Array<{ reputation: number; sum: number }> = await t.dataSource.query(
      `SELECT u.reputation, (SELECT COALESCE(sum(points), 0)::int FROM reputation_ledger WHERE user_id = u.id) AS sum
       FROM users u WHERE u.id = $1`,
      [userId],
    );
    return row!;
  }

  async function expectBalanced(member: Member, reputation?: number): Promise<void> {
    const { reputation: stored, sum } = await balance(member.user.id);
    expect(stored).toBe(sum);
    if (reputation !== undefined) expect(stored).toBe(reputation);
    expect((await ledger(member.browser, member.user.id)).total).toBe(stored);
  }

  const brief = (entry: ReputationEntry) => [entry.reason, entry.points, entry.capped];

  it('starts empty for a new member', async () => {
    const alice = await registered(t);
    const page = await ledger(alice.browser, alice.user.id);
    expect(page).toEqual({
      total: 0,
      today: {
        paste: { earned: 0, cap: CAPS.paste },
        reply: { earned: 0, cap: CAPS.reply },
        chat: { earned: 0, cap: CAPS.chat },
        vote: { earned: 0, cap: CAPS.vote },
      },
      entries: [],
      nextCursor: null,
    });
  });

  it('gives +5 a paste up to the day’s cap, then +0 marked capped; each paste is a ledger row', async () => {
    const alice = await registered(t);
    const ids = [await paste(alice, 'first'), await paste(alice, 'second'), await paste(alice, 'third')];
    const page = await ledger(alice.browser, alice.user.id);
    expect(page.entries.map(brief)).toEqual([
      ['paste', 0, true],
      ['paste', REPUTATION.thread, false],
      ['paste', REPUTATION.thread, false],
    ]);
    expect(page.entries.map((entry) => [entry.threadId, entry.threadTitle, entry.replyId])).toEqual([
      [ids[2], 'third', null],
      [ids[1], 'second', null],
      [ids[0], 'first', null],
    ]);
    expect(page.today.paste).toEqual({ earned: CAPS.paste, cap: CAPS.paste });
    expect(page.total).toBe(CAPS.paste);
    await expectBalanced(alice, CAPS.paste);
    // The profile (and its page cache) shows the capped total.
    const profile = userProfileSchema.parse((await supertest(t.url).get(API.user(alice.user.id))).body);
    expect(profile.reputation).toBe(CAPS.paste);
    expect(profile.threadCount).toBe(3);
  });

  it('caps replies and chat messages the same way', async () => {
    const alice = await registered(t);
    const bob = await registered(t);
    const threadId = await paste(bob);
    const replies = [
      await reply(alice, threadId),
      await reply(alice, threadId),
      await reply(alice, threadId),
    ];
    for (let i = 0; i < 4; i++) {
      await alice.browser
        .post(API.chatMessages)
        .send({ content: `hello ${i}` })
        .expect(201);
    }
    const page = await ledger(alice.browser, alice.user.id);
    expect(page.entries.map(brief)).toEqual([
      ['chat', 0, true],
      ['chat', 1, false],
      ['chat', 1, false],
      ['chat', 1, false],
      ['reply', 0, true],
      ['reply', 2, false],
      ['reply', 2, false],
    ]);
    expect(page.entries.slice(4).map((entry) => [entry.threadId, entry.replyId])).toEqual([
      [threadId, replies[2]],
      [threadId, replies[1]],
      [threadId, replies[0]],
    ]);
    expect(page.entries[0]).toMatchObject({ threadId: null, threadTitle: null, replyId: null });
    expect(page.today).toMatchObject({
      reply: { earned: CAPS.reply, cap: CAPS.reply },
      chat: { earned: CAPS.chat, cap: CAPS.chat },
    });
    await expectBalanced(alice, CAPS.reply + CAPS.chat);
  });

  it('counts concurrent writes of one member against the cap exactly', async () => {
    const carol = await registered(t);
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        carol.browser
          .post(API.threads)
          .send({ title: `race ${i}`, content: 'x' })
          .expect(201),
      ),
    );
    const entries = await fullLedger(carol);
    expect(entries).toHaveLength(6);
    expect(entries.filter((entry) => entry.points === REPUTATION.thread)).toHaveLength(2);
    await expectBalanced(carol, CAPS.paste);
  });

  it('starts a new cap each UTC day', async () => {
    const dave = await registered(t);
    for (let i = 0; i < 3; i++) await paste(dave);
    await expectBalanced(dave, CAPS.paste);
    // As if those pastes were yesterday's.
    await t.dataSource.query(
      "UPDATE reputation_daily SET day = day - 1 WHERE user_id = $1 AND reason = 'paste'",
      [dave.user.id],
    );
    await paste(dave);
    const page = await ledger(dave.browser, dave.user.id);
    expect(brief(page.entries[0]!)).toEqual(['paste', REPUTATION.thread, false]);
    expect(page.today.paste.earned).toBe(REPUTATION.thread);
    await expectBalanced(dave, CAPS.paste + REPUTATION.thread);
  });

  describe('votes received', () => {
    it('+1 an up-vote (capped), -1 a down-vote; taken back or switched, what it gave is given back', async () => {
      const author = await registered(t);
      const voters = [await registered(t), await registered(t), await registered(t), await registered(t)];
      const threadId = await paste(author);
      await expectBalanced(author, REPUTATION.thread);

      await vote(voters[0]!, { threadId }, 1); // +1
      await vote(voters[1]!, { threadId }, 1); // +1: the cap (2) reached
      await vote(voters[2]!, { threadId }, 1); // +0, capped
      await expectBalanced(author, REPUTATION.thread + 2);

      expect((await vote(voters[0]!, { threadId }, 1)).value).toBeNull(); // taken back: -1
      await vote(voters[2]!, { threadId }, 1); // the capped vote taken back: it gave nothing, no row
      await vote(voters[1]!, { threadId }, -1); // switched: -1 (back), then -1 (down)
      await vote(voters[3]!, { threadId }, 1); // up again, but today's 2 points are earned: +0
      await vote(author, { threadId }, 1); // one's own paste: nothing
      await expectBalanced(author, REPUTATION.thread - 1);

      const page = await ledger(author.browser, author.user.id);
      expect(page.entries.map(brief)).toEqual([
        ['vote', 0, true],
        ['vote', -1, false],
        ['vote_undone', -1, false],
        ['vote_undone', -1, false],
        ['vote', 0, true],
        ['vote', 1, false],
        ['vote', 1, false],
        ['paste', REPUTATION.thread, false],
      ]);
      for (const entry of page.entries) expect(entry.threadId).toBe(threadId);
      // The page never says who voted.
      expect(JSON.stringify(page)).not.toMatch(/username|voter|userId/);
      expect(page.today.vote).toEqual({ earned: CAPS.vote, cap: CAPS.vote });
      // A down-vote taken back gives its point back.
      await vote(voters[1]!, { threadId }, -1);
      await expectBalanced(author, REPUTATION.thread);
    });

    it('on replies too, linked to the reply; the author’s profile shows the new total at once', async () => {
      const author = await registered(t);
      const voter = await registered(t);
      const threadId = await paste(voter);
      const replyId = await reply(author, threadId);
      const visitor = supertest(t.url);
      // The profile is in the page cache now.
      expect((await visitor.get(API.user(author.user.id))).body.reputation).toBe(REPUTATION.reply);
      await vote(voter, { replyId }, 1);
      expect((await visitor.get(API.user(author.user.id))).body.reputation).toBe(REPUTATION.reply + 1);
      const [latest] = (await ledger(author.browser, author.user.id)).entries;
      expect(latest).toMatchObject({ reason: 'vote', points: 1, threadId, replyId });
      await expectBalanced(author, REPUTATION.reply + 1);
    });

    it('keeps the total equal to the ledger’s sum through a mix of writes, flips and undos', async () => {
      const members = [await registered(t), await registered(t), await registered(t), await registered(t)];
      const threads: number[] = [];
      const replies: number[] = [];
      for (const [i, member] of members.entries()) {
        threads.push(await paste(member, `mix ${i}`));
        await member.browser
          .post(API.chat)
          .send({ message: `hi ${i}` })
          .expect(201);
      }
      for (const [i, member] of members.entries()) replies.push(await reply(member, threads[(i + 1) % 4]!));
      // Every member votes on every paste and reply, some twice (undo), some flipped, in a fixed pattern.
      let step = 0;
      for (const member of members) {
        for (const target of [
          ...threads.map((id) => ({ threadId: id })),
          ...replies.map((id) => ({ replyId: id })),
        ]) {
          step++;
          const first: 1 | -1 = step % 3 === 0 ? -1 : 1;
          await vote(member, target, first);
          if (step % 4 === 0) await vote(member, target, first); // undo
          if (step % 5 === 0) await vote(member, target, first === 1 ? -1 : 1); // flip
        }
      }
      for (const member of members) await expectBalanced(member);
      const [{ mismatched }]: Array<{ mismatched: number }> = await t.dataSource.query(
        `SELECT count(*)::int AS mismatched FROM users u
         WHERE u.reputation <> (SELECT COALESCE(sum(points), 0) FROM reputation_ledger WHERE user_id = u.id)`,
      );
      expect(mismatched).toBe(0);
    });
  });

  it('gives back what a deleted paste earned; its rows no longer link to it', async () => {
    const erin = await registered(t);
    const admin = await registered(t);
    await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [admin.user.id]);
    const threadId = await paste(erin, 'doomed');
    await admin.browser.delete(API.adminThread(threadId)).expect(200);
    const page = await ledger(erin.browser, erin.user.id);
    expect(page.entries).toEqual([
      expect.objectContaining({
        reason: 'post_deleted',
        points: -REPUTATION.thread,
        threadId: null,
        threadTitle: null,
      }),
      expect.objectContaining({
        reason: 'paste',
        points: REPUTATION.thread,
        threadId: null,
        threadTitle: null,
      }),
    ]);
    await expectBalanced(erin, 0);
  });

  it('pages newest first by cursor, without gaps or repeats', async () => {
    const frank = await registered(t);
    const bob = await registered(t);
    const threadId = await paste(bob);
    const rows = REPUTATION_LEDGER_PAGE_SIZE + 5;
    for (let i = 0; i < rows; i++) {
      await frank.browser
        .post(API.chatMessages)
        .send({ content: `line ${i}` })
        .expect(201);
    }
    await reply(frank, threadId);
    const first = await ledger(frank.browser, frank.user.id);
    expect(first.entries).toHaveLength(REPUTATION_LEDGER_PAGE_SIZE);
    expect(first.entries[0]!.reason).toBe('reply');
    expect(first.nextCursor).not.toBeNull();
    const second = await ledger(frank.browser, frank.user.id, first.nextCursor!);
    expect(second.entries).toHaveLength(rows + 1 - REPUTATION_LEDGER_PAGE_SIZE);
    expect(second.nextCursor).toBeNull();
    const ids = [...first.entries, ...second.entries].map((entry) => entry.id);
    expect(new Set(ids).size).toBe(rows + 1);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    await frank.browser
      .get(API.userReputation(frank.user.id))
      .query({ cursor: 'not-a-cursor' })
      .expect(400, { statusCode: 400, message: 'Invalid cursor' });
  });

  describe('who may read a ledger', () => {
    let owner: Member;
    let other: Member;
    let admin: Member;

    beforeAll(async () => {
      owner = await registered(t);
      other = await registered(t);
      admin = await registered(t);
      await t.dataSource.query('UPDATE users SET is_admin = true WHERE id = $1', [admin.user.id]);
      await paste(owner);
    });

    it('the member themself', async () => {
      expect((await ledger(owner.browser, owner.user.id)).entries).toHaveLength(1);
    });

    it('not another member: 403 with the reason', async () => {
      await other.browser
        .get(API.userReputation(owner.user.id))
        .expect(403, { statusCode: 403, message: REPUTATION_MESSAGES.ledgerPrivate });
      // Whether the account exists or not.
      await other.browser
        .get(API.userReputation(2_000_000_000))
        .expect(403, { statusCode: 403, message: REPUTATION_MESSAGES.ledgerPrivate });
    });

    it('not a visitor: 401', async () => {
      await t.browser().get(API.userReputation(owner.user.id)).expect(401);
    });

    it('an admin: any member’s, and 404 for no such member', async () => {
      expect((await ledger(admin.browser, owner.user.id)).total).toBe(REPUTATION.thread);
      await admin.browser
        .get(API.userReputation(2_000_000_000))
        .expect(404, { statusCode: 404, message: POST_MESSAGES.userNotFound });
      await admin.browser.get(API.userReputation('abc')).expect(404);
    });
  });
});

describe('reputation ledger migration', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('opens the ledger with each member’s reputation (none for 0), so totals equal ledger sums', async () => {
    const runner = t.dataSource.createQueryRunner();
    try {
      const migration = new ReputationLedger1796400000000();
      await migration.down(runner);
      const users: Array<{ id: number }> = await runner.query(
        `INSERT INTO users (username, email, password_hash, reputation)
         VALUES ('old_timer', 'old@example.com', 'x', 1234), ('newcomer', 'new@example.com', 'x', 0),
                ('downvoted', 'down@example.com', 'x', -3)
         RETURNING id`,
      );
      await migration.up(runner);
      const rows: Array<{ user_id: number; points: number; reason: string }> = await runner.query(
        'SELECT user_id, points, reason FROM reputation_ledger ORDER BY user_id',
      );
      expect(rows).toEqual([
        { user_id: users[0]!.id, points: 1234, reason: 'opening' },
        { user_id: users[2]!.id, points: -3, reason: 'opening' },
      ]);
    } finally {
      await runner.release();
    }
  });
});
