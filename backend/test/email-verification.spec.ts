import { API, PAGES, VERIFY_MESSAGES, VERIFY_LINK_EXPIRY_MS, type ChatMessage } from '@termpaste/contracts';
import { EmailVerification1796100000000 } from '../src/infra/database/migrations/1796100000000-email-verification.js';
import {
  type Browser,
  PASSWORD,
  registered,
  registeredUnverified,
  verificationToken,
  verifyByMail,
} from './support/accounts.js';
import { connect, settle } from './support/live.js';
import { sessionCookie } from './support/accounts.js';
import { createTestDatabase } from './support/postgres.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const UNVERIFIED = { statusCode: 403, message: VERIFY_MESSAGES.unverified };
const INVALID = { statusCode: 400, message: VERIFY_MESSAGES.invalidToken };

/** Every kind of member write, each as a fresh request by `browser` (ids of a paste and reply to use). */
function writes(browser: Browser, ids: { thread: number; reply: number; recipient: string }) {
  // Built lazily: `ids` is read when a write is sent.
  return {
    paste: () => browser.post(API.threads).send({ title: 'Spam', content: 'buy now' }),
    reply: () => browser.post(API.threadReplies(ids.thread)).send({ content: 'me too' }),
    'vote on a paste': () => browser.post(API.votes).send({ threadId: ids.thread, value: 1 }),
    'vote on a reply': () => browser.post(API.votes).send({ replyId: ids.reply, value: -1 }),
    'private message': () =>
      browser.post(API.messages).send({ recipientEmail: ids.recipient, subject: 'Hi', content: 'hello' }),
    'support request': () => browser.post(API.support).send({ subject: 'Help', content: 'please' }),
    'chat (popover)': () => browser.post(API.chat).send({ message: 'hi all' }),
    'chat (chat page)': () => browser.post(API.chatMessages).send({ content: 'hi all' }),
    profile: () => browser.put(API.userProfile).send({ bio: 'visit my site' }),
    'rank choice': () => browser.post(API.userSelectRank).send({ rankName: null }),
    'avatar upload address': () => browser.post(API.objectsUpload),
    avatar: () => browser.put(API.userAvatar).send({ avatarURL: '/api/uploads/x' }),
  };
}

const WRITE_KINDS = Object.keys(writes(undefined as never, undefined as never));

describe('e-mail verification', () => {
  let t: TestApp;
  let author: Awaited<ReturnType<typeof registered>>;
  let ids: { thread: number; reply: number; recipient: string };

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'http://forum.example.com', PRODUCT_NAME: 'Paste Club' } });
    author = await registered(t);
    const thread = await author.browser
      .post(API.threads)
      .send({ title: 'Hello', content: 'world' })
      .expect(201);
    const reply = await author.browser
      .post(API.threadReplies(thread.body.id))
      .send({ content: 'first' })
      .expect(201);
    ids = { thread: thread.body.id, reply: reply.body.id, recipient: author.account.username };
  });

  afterAll(async () => {
    await t.close();
  });

  it('mails a single-use link valid 24 hours on registration, storing only its hash', async () => {
    const { account, user } = await registeredUnverified(t, { email: 'Ada@Example.com' });
    expect(user.emailVerified).toBe(false);
    const [mail] = t.mail.to(account.email);
    expect(mail).toMatchObject({
      to: 'Ada@Example.com',
      subject: 'Verify your e-mail address for Paste Club',
    });
    expect(mail!.jobId).toMatch(/^verify-email-\d+$/);
    const token = verificationToken(t, account.email)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail!.text).toContain(`http://forum.example.com${PAGES.verifyEmail}?token=${token}`);
    expect(mail!.text).toContain('24 hours');

    const rows = await t.dataSource.query(
      `SELECT token_hash, email::text AS email, used_at,
              extract(epoch FROM expires_at - created_at)::int AS seconds
       FROM email_verification_tokens WHERE user_id = $1`,
      [user.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].token_hash).not.toContain(token);
    expect(rows[0]).toMatchObject({ email: 'Ada@Example.com', used_at: null, seconds: 24 * 60 * 60 });
    expect(VERIFY_LINK_EXPIRY_MS).toBe(24 * 60 * 60 * 1000);
  });

  describe('a member whose address is not verified', () => {
    let member: Awaited<ReturnType<typeof registeredUnverified>>;

    beforeAll(async () => {
      member = await registeredUnverified(t);
    });

    it('signs in and reads: the current user says the address is not verified', async () => {
      const browser = t.browser();
      const login = await browser
        .post(API.login)
        .send({ usernameOrEmail: member.account.username, password: PASSWORD })
        .expect(200);
      expect(login.body.emailVerified).toBe(false);
      expect((await browser.get(API.currentUser).expect(200)).body.emailVerified).toBe(false);
      await browser.get(API.threadsRecent).expect(200);
      await browser.get(API.thread(ids.thread)).expect(200);
      await browser.get(API.notifications).expect(200);
      await browser.get(API.messages).expect(200);
      await browser.get(API.chat).expect(200);
      await browser.get(API.users).expect(200);
    });

    it.each(WRITE_KINDS)(
      'is refused a %s: 403 saying to verify the address, and nothing is written',
      async (kind) => {
        const before = await t.dataSource.query(
          `SELECT (SELECT count(*) FROM threads) + (SELECT count(*) FROM replies) + (SELECT count(*) FROM votes)
             + (SELECT count(*) FROM private_messages) + (SELECT count(*) FROM chat_messages) AS n`,
        );
        const res = await writes(member.browser, ids)[kind as keyof ReturnType<typeof writes>]();
        expect(res.body).toEqual(UNVERIFIED);
        expect(res.status).toBe(403);
        const after = await t.dataSource.query(
          `SELECT (SELECT count(*) FROM threads) + (SELECT count(*) FROM replies) + (SELECT count(*) FROM votes)
             + (SELECT count(*) FROM private_messages) + (SELECT count(*) FROM chat_messages) AS n`,
        );
        expect(after).toEqual(before);
      },
    );

    it('reads the chat live, and can write nothing over the live socket', async () => {
      const live = await connect(t, { cookie: sessionCookie(await loginResponse(member.account.username))! });
      try {
        const before = (await member.browser.get(API.chat).expect(200)).body as ChatMessage[];
        live.ws.send(JSON.stringify({ type: 'chat_message', message: 'over the socket' }));
        live.ws.send(JSON.stringify({ type: 'new_message', content: 'over the socket' }));
        await live.roundTrip();
        await settle();
        expect((await member.browser.get(API.chat).expect(200)).body).toEqual(before);
        // A verified member's message reaches the unverified one's socket: reading works.
        await author.browser.post(API.chat).send({ message: 'live hello' }).expect(201);
        await live.next('the chat message', (frame) => JSON.stringify(frame).includes('live hello'));
      } finally {
        await live.close();
      }
    });

    it('writes once the mailed link is opened (in any browser)', async () => {
      const token = verificationToken(t, member.account.email)!;
      await t
        .browser()
        .post(API.verifyEmail)
        .send({ token })
        .expect(200, { message: VERIFY_MESSAGES.verified });
      expect((await member.browser.get(API.currentUser).expect(200)).body.emailVerified).toBe(true);
      await member.browser.post(API.threads).send({ title: 'Now I can', content: 'post' }).expect(201);
      await member.browser.post(API.chat).send({ message: 'hi all' }).expect(201);
    });
  });

  async function loginResponse(usernameOrEmail: string) {
    return t.browser().post(API.login).send({ usernameOrEmail, password: PASSWORD }).expect(200);
  }

  it('takes a token once', async () => {
    const { account } = await registeredUnverified(t);
    const token = verificationToken(t, account.email)!;
    await t.browser().post(API.verifyEmail).send({ token }).expect(200);
    await t.browser().post(API.verifyEmail).send({ token }).expect(400, INVALID);
  });

  it('refuses an expired token', async () => {
    const { account, user, browser } = await registeredUnverified(t);
    await t.dataSource.query(
      "UPDATE email_verification_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [user.id],
    );
    await t
      .browser()
      .post(API.verifyEmail)
      .send({ token: verificationToken(t, account.email) })
      .expect(400, INVALID);
    expect((await browser.get(API.currentUser).expect(200)).body.emailVerified).toBe(false);
  });

  it('refuses a made-up, missing or overlong token', async () => {
    await t
      .browser()
      .post(API.verifyEmail)
      .send({ token: 'A'.repeat(43) })
      .expect(400, INVALID);
    await t
      .browser()
      .post(API.verifyEmail)
      .send({})
      .expect(400, { statusCode: 400, message: `token: ${VERIFY_MESSAGES.tokenRequired}` });
    await t
      .browser()
      .post(API.verifyEmail)
      .send({ token: 'A'.repeat(257) })
      .expect(400, { statusCode: 400, message: `token: ${VERIFY_MESSAGES.invalidToken}` });
  });

  it('refuses a link mailed to an address the member no longer has', async () => {
    const { account, user } = await registeredUnverified(t);
    await t.dataSource.query("UPDATE users SET email = 'changed_' || email WHERE id = $1", [user.id]);
    await t
      .browser()
      .post(API.verifyEmail)
      .send({ token: verificationToken(t, account.email) })
      .expect(400, INVALID);
  });

  describe('re-sending the link', () => {
    it('mails a new link and voids the older one', async () => {
      const { account, browser } = await registeredUnverified(t);
      const first = verificationToken(t, account.email)!;
      await browser.post(API.verifyEmailResend).expect(200, { message: VERIFY_MESSAGES.linkSent });
      const second = verificationToken(t, account.email)!;
      expect(second).not.toBe(first);
      expect(t.mail.to(account.email)).toHaveLength(2);
      await t.browser().post(API.verifyEmail).send({ token: first }).expect(400, INVALID);
      await t.browser().post(API.verifyEmail).send({ token: second }).expect(200);
    });

    it('is for signed-in members (401) whose address is not verified yet (409)', async () => {
      await t.browser().post(API.verifyEmailResend).expect(401);
      await author.browser
        .post(API.verifyEmailResend)
        .expect(409, { statusCode: 409, message: VERIFY_MESSAGES.alreadyVerified });
    });
  });

  it('tells anyone that this installation requires verified addresses', async () => {
    await t.http.get(API.site).expect(200, {
      productName: 'Paste Club',
      requireVerifiedEmail: true,
      localLogin: true,
      signInProviders: [],
    });
  });
});

describe('re-sending verification links: rate limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMITS: 'on',
        RATE_LIMIT_REGISTER_PER_HOUR: '100',
        RATE_LIMIT_VERIFY_EMAIL_PER_HOUR: '2',
        RATE_LIMIT_VERIFY_EMAIL_PER_ADDRESS_PER_HOUR: '4',
      },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('allows RATE_LIMIT_VERIFY_EMAIL_PER_HOUR per member, then 429 with Retry-After', async () => {
    const { account, browser } = await registeredUnverified(t);
    await browser.post(API.verifyEmailResend).expect(200);
    await browser.post(API.verifyEmailResend).expect(200);
    const res = await browser.post(API.verifyEmailResend).expect(429);
    const seconds = Number(res.headers['retry-after']);
    expect(seconds).toBeGreaterThan(3500);
    expect(res.body).toEqual({ statusCode: 429, message: VERIFY_MESSAGES.resendTooMany(seconds) });
    expect(t.mail.to(account.email)).toHaveLength(3); // the registration's and two more
  });

  it('allows RATE_LIMIT_VERIFY_EMAIL_PER_ADDRESS_PER_HOUR per client address, whoever asks', async () => {
    const other = await registeredUnverified(t);
    await other.browser.post(API.verifyEmailResend).expect(200);
    const third = await registeredUnverified(t);
    await third.browser.post(API.verifyEmailResend).expect(429);
    expect(t.mail.to(third.account.email)).toHaveLength(1);
  });
});

describe('REQUIRE_VERIFIED_EMAIL=false', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { REQUIRE_VERIFIED_EMAIL: 'false' } });
  });

  afterAll(async () => {
    await t.close();
  });

  it('lets a member whose address is not verified write everything; the link is still mailed', async () => {
    const other = await registered(t);
    const member = await registeredUnverified(t);
    expect(member.user.emailVerified).toBe(false);
    expect(verificationToken(t, member.account.email)).toBeDefined();
    const thread = await member.browser
      .post(API.threads)
      .send({ title: 'Closed', content: 'install' })
      .expect(201);
    const reply = await member.browser
      .post(API.threadReplies(thread.body.id))
      .send({ content: 'reply' })
      .expect(201);
    const all = writes(member.browser, {
      thread: thread.body.id,
      reply: reply.body.id,
      recipient: other.account.username,
    });
    for (const [kind, write] of Object.entries(all)) {
      if (kind === 'avatar') continue; // needs a real upload first; the guard is the same as the others'
      const res = await write();
      expect([kind, res.status]).not.toEqual([kind, 403]);
      expect(res.status).toBeLessThan(400);
    }
    await t.http.get(API.site).expect(200, {
      productName: 'Termpaste',
      requireVerifiedEmail: false,
      localLogin: true,
      signInProviders: [],
    });
  });
});

describe('the migration', () => {
  it('counts accounts that exist when it runs as verified, so an upgrade locks nobody out', async () => {
    const database = await createTestDatabase();
    const t = await createTestApp({ database });
    try {
      const migration = new EmailVerification1796100000000();
      const runner = t.dataSource.createQueryRunner();
      try {
        await migration.down(runner);
        await runner.query(
          `INSERT INTO users (username, email, password_hash, created_at)
           VALUES ('old_timer', 'old@example.com', 'x', '2025-01-02T03:04:05Z')`,
        );
        await migration.up(runner);
      } finally {
        await runner.release();
      }
      const [row] = await t.dataSource.query(
        "SELECT email_verified_at FROM users WHERE username = 'old_timer'",
      );
      expect(row.email_verified_at).toEqual(new Date('2025-01-02T03:04:05Z'));
      // A new account after it is not.
      const fresh = await registeredUnverified(t);
      expect(fresh.user.emailVerified).toBe(false);
      await verifyByMail(t, fresh.account.email);
    } finally {
      await t.close();
      await database.drop();
    }
  });
});
