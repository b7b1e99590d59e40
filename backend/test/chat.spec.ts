import {
  API,
  CHAT_HISTORY_SIZE,
  type ChatMessage,
  chatHistorySchema,
  chatMessageSchema,
  POST_MESSAGES,
  LIMITS,
  MESSAGING_MESSAGES,
  REPUTATION,
} from '@termpaste/contracts';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };

/** The two API variants: where they are, and the body field each POST takes. */
const VARIANTS = [
  { name: 'popover', path: API.chat, field: 'message' },
  { name: 'chat page', path: API.chatMessages, field: 'content' },
] as const;

async function post(browser: Browser, path: string, body: object): Promise<ChatMessage> {
  const res = await browser.post(path).send(body).expect(201);
  return chatMessageSchema.parse(res.body);
}

async function history(browser: Browser, path: string = API.chat): Promise<ChatMessage[]> {
  const res = await browser.get(path).expect(200);
  return chatHistorySchema.parse(res.body);
}

async function reputationOf(t: TestApp, userId: number): Promise<number> {
  const [row]: Array<{ reputation: number }> = await t.dataSource.query(
    'SELECT reputation FROM users WHERE id = $1',
    [userId],
  );
  return row!.reputation;
}

describe('global chat', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof registered>>;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await registered(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe.each(VARIANTS)('POST $path ($name variant)', ({ path, field }) => {
    it('saves a message and answers 201 with it, trimmed, with its author', async () => {
      const before = Date.now();
      const message = await post(alice.browser, path, { [field]: `  hello from ${field}\n ` });
      expect(message).toEqual({
        id: expect.any(Number),
        content: `hello from ${field}`,
        createdAt: expect.any(String),
        author: {
          id: alice.user.id,
          username: alice.account.username,
          avatarUrl: null,
          profileImageUrl: null,
          firstName: null,
          lastName: null,
          reputation: expect.any(Number),
          activePremiumRank: null,
        },
        hidden: false,
      });
      expect(Date.parse(message.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      // Its author's reputation as it is with this message counted.
      expect(message.author!.reputation).toBe(await reputationOf(t, alice.user.id));
      // The author's e-mail address never shows.
      expect(JSON.stringify(message)).not.toContain(alice.account.email);
    });

    it('gives +1 reputation per message', async () => {
      const before = await reputationOf(t, alice.user.id);
      await post(alice.browser, path, { [field]: 'one' });
      await post(alice.browser, path, { [field]: 'two' });
      expect(await reputationOf(t, alice.user.id)).toBe(before + 2 * REPUTATION.chatMessage);
    });

    it.each([
      ['empty', '', MESSAGING_MESSAGES.chatRequired],
      ['whitespace only', ' \n\t ', MESSAGING_MESSAGES.chatRequired],
      ['501 characters', 'x'.repeat(LIMITS.chatMessageMax + 1), MESSAGING_MESSAGES.chatTooLong],
    ])('refuses a message that is %s (400 with a message)', async (_case, text, expected) => {
      const before = await reputationOf(t, alice.user.id);
      const res = await alice.browser
        .post(path)
        .send({ [field]: text })
        .expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(expected) });
      expect(await reputationOf(t, alice.user.id)).toBe(before);
    });

    it('takes exactly 500 characters, counted after trimming', async () => {
      const text = 'y'.repeat(LIMITS.chatMessageMax);
      expect((await post(alice.browser, path, { [field]: `   ${text}   ` })).content).toBe(text);
    });

    it.each([
      ['a missing field', {}],
      ['a number', { [field]: 42 }],
      ['null', { [field]: null }],
      ['an array', { [field]: ['hi'] }],
    ])('refuses %s (400 with a message)', async (_case, body) => {
      const res = await alice.browser.post(path).send(body).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(field) });
    });

    it('takes only its own field name', async () => {
      const other = field === 'message' ? 'content' : 'message';
      await alice.browser
        .post(path)
        .send({ [other]: 'wrong field' })
        .expect(400);
    });

    it('is a 401 for a visitor and a 403 for a banned member', async () => {
      await t
        .browser()
        .post(path)
        .send({ [field]: 'hi' })
        .expect(401, UNAUTHORIZED);
      const banned = await registered(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await banned.browser
        .post(path)
        .send({ [field]: 'hi' })
        .expect(403, { statusCode: 403, message: POST_MESSAGES.banned });
    });

    it('refuses a cross-site POST', async () => {
      await alice.browser
        .post(path)
        .set('Origin', 'https://evil.example')
        .send({ [field]: 'csrf' })
        .expect(403);
    });
  });

  describe.each(VARIANTS)('GET $path ($name variant)', ({ path }) => {
    it('is for members only: 401 for a visitor and for a banned member', async () => {
      await t.browser().get(path).expect(401, UNAUTHORIZED);
      const banned = await registered(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      await banned.browser.get(path).expect(401, UNAUTHORIZED);
    });
  });

  describe('history', () => {
    it('is the same store behind both variants, newest first', async () => {
      const bob = await registered(t);
      const first = await post(alice.browser, API.chat, { message: 'first' });
      const second = await post(bob.browser, API.chatMessages, { content: 'second' });
      const third = await post(alice.browser, API.chat, { message: 'third' });
      const popover = await history(bob.browser, API.chat);
      const page = await history(alice.browser, API.chatMessages);
      expect(page).toEqual(popover);
      expect(popover.slice(0, 3).map((m) => m.id)).toEqual([third.id, second.id, first.id]);
      expect(popover[1]).toEqual(second);
      for (let i = 1; i < popover.length; i++) {
        expect(Date.parse(popover[i - 1]!.createdAt)).toBeGreaterThanOrEqual(
          Date.parse(popover[i]!.createdAt),
        );
      }
    });

    it(`keeps to the latest ${CHAT_HISTORY_SIZE}`, async () => {
      await t.dataSource.query(
        `INSERT INTO chat_messages (author_id, content)
         SELECT $1, 'bulk ' || n FROM generate_series(1, $2) AS n`,
        [alice.user.id, CHAT_HISTORY_SIZE + 5],
      );
      const latest = await post(alice.browser, API.chat, { message: 'latest' });
      const messages = await history(alice.browser);
      expect(messages).toHaveLength(CHAT_HISTORY_SIZE);
      expect(messages[0]!.id).toBe(latest.id);
      // The latest, then the newest 99 of the bulk: down to bulk 105 - 98.
      expect(messages.at(-1)!.content).toBe(`bulk ${CHAT_HISTORY_SIZE + 5 - (CHAT_HISTORY_SIZE - 2)}`);
    });

    it('shows an active premium grade only while it is owned, and null for a deleted account', async () => {
      const carol = await registered(t);
      const mine = await post(carol.browser, API.chat, { message: 'premium' });
      const find = async () => (await history(alice.browser)).find((m) => m.id === mine.id)!;
      await t.dataSource.query(
        `UPDATE users SET active_premium_rank = 'Cyber Ghost', owned_premium_ranks = '{Elite Hacker}' WHERE id = $1`,
        [carol.user.id],
      );
      expect((await find()).author!.activePremiumRank).toBeNull();
      await t.dataSource.query(
        `UPDATE users SET owned_premium_ranks = '{Elite Hacker,Cyber Ghost}' WHERE id = $1`,
        [carol.user.id],
      );
      expect((await find()).author!.activePremiumRank).toBe('Cyber Ghost');
      await t.dataSource.query('DELETE FROM users WHERE id = $1', [carol.user.id]);
      expect(await find()).toEqual({ ...mine, author: null });
    });
  });
});

describe('chat rate limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMITS: 'on', RATE_LIMIT_CHAT_MESSAGES: '3', RATE_LIMIT_CHAT_WINDOW_SECONDS: '30' },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  function expectTooFast(res: {
    status: number;
    body: { message?: string };
    headers: Record<string, string>;
  }) {
    expect(res.status).toBe(429);
    const seconds = Number(res.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(30);
    expect(res.body).toEqual({ statusCode: 429, message: MESSAGING_MESSAGES.chatTooFast(seconds) });
  }

  it('allows RATE_LIMIT_CHAT_MESSAGES per window per member, shared by both routes, then 429', async () => {
    const dave = await registered(t);
    await dave.browser.post(API.chat).send({ message: 'one' }).expect(201);
    await dave.browser.post(API.chatMessages).send({ content: 'two' }).expect(201);
    await dave.browser.post(API.chat).send({ message: 'three' }).expect(201);
    expectTooFast(await dave.browser.post(API.chatMessages).send({ content: 'four' }));
    expectTooFast(await dave.browser.post(API.chat).send({ message: 'five' }));
    // Nothing refused was saved.
    const [{ count }]: Array<{ count: number }> = await t.dataSource.query(
      'SELECT count(*)::int AS count FROM chat_messages WHERE author_id = $1',
      [dave.user.id],
    );
    expect(count).toBe(3);
    // Reading is not limited.
    await dave.browser.get(API.chat).expect(200);
  });

  it('counts per member: another member is not held back', async () => {
    const erin = await registered(t);
    const frank = await registered(t);
    for (let i = 0; i < 3; i++)
      await erin.browser
        .post(API.chat)
        .send({ message: `e${i}` })
        .expect(201);
    expectTooFast(await erin.browser.post(API.chat).send({ message: 'e3' }));
    await frank.browser.post(API.chat).send({ message: 'f0' }).expect(201);
  });

  it('checks who is writing first: a visitor gets 401, not a count', async () => {
    const visitor = t.browser();
    for (let i = 0; i < 5; i++) await visitor.post(API.chat).send({ message: 'hi' }).expect(401);
  });
});

describe('chat rate limit with the defaults', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('allows 5 messages in 10 seconds, the 6th is a 429', async () => {
    const grace = await registered(t);
    for (let i = 0; i < 5; i++)
      await grace.browser
        .post(API.chat)
        .send({ message: `g${i}` })
        .expect(201);
    const res = await grace.browser.post(API.chat).send({ message: 'g5' }).expect(429);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(10);
    expect(res.body.message).toBe(MESSAGING_MESSAGES.chatTooFast(Number(res.headers['retry-after'])));
  });
});

describe('chat rate limit switched off', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'off', RATE_LIMIT_CHAT_MESSAGES: '1' } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lets every message through with RATE_LIMITS=off', async () => {
    const heidi = await registered(t);
    for (let i = 0; i < 8; i++)
      await heidi.browser
        .post(API.chatMessages)
        .send({ content: `h${i}` })
        .expect(201);
  });
});
