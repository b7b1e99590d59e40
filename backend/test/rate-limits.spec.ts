import { API } from '@termpaste/contracts';
import { RATE_LIMIT_DEFAULTS } from '../src/config/config.js';
import { PasswordResetService } from '../src/modules/auth/password-reset.service.js';
import { rateLimitThrottlers, searchRateLimitThrottlers } from '../src/modules/auth/rate-limit.guard.js';
import { newAccount, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const SITE = 'https://forum.example.com';
/** How long an attempt on an account waits once it is past its hourly sign-in attempts. */
const SLOWDOWN_MS = 1500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The request's answer and how long it took. */
async function timed<T>(request: PromiseLike<T>): Promise<{ res: T; ms: number }> {
  const started = performance.now();
  const res = await request;
  return { res, ms: performance.now() - started };
}
const TOO_MANY = /^Too many attempts\. Try again in (\d+) seconds\.$/;

let address = 0;
/** A client address of its own (the app trusts X-Forwarded-For behind https, as behind its proxy). */
function newAddress(): string {
  address++;
  return `198.51.100.${address}`;
}

/** The seconds a 429 says to wait, checked against its Retry-After header. */
function retryAfter(res: {
  status: number;
  body: { message?: string };
  headers: Record<string, string>;
}): number {
  expect(res.status).toBe(429);
  const seconds = Number(TOO_MANY.exec(res.body.message ?? '')?.[1]);
  expect(res.headers['retry-after']).toBe(String(seconds));
  expect(res.body).toEqual({
    statusCode: 429,
    message: `Too many attempts. Try again in ${seconds} seconds.`,
  });
  return seconds;
}

describe('rate limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        PUBLIC_URL: SITE,
        RATE_LIMITS: 'on',
        RATE_LIMIT_LOGIN_PER_MINUTE: '3',
        RATE_LIMIT_LOGIN_PER_HOUR: '5',
        RATE_LIMIT_REGISTER_PER_HOUR: '2',
        RATE_LIMIT_FORGOT_PASSWORD_PER_HOUR: '3',
        RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL_PER_HOUR: '2',
        RATE_LIMIT_FORGOT_PASSWORD_INTERVAL_SECONDS: '2',
        RATE_LIMIT_RESET_PASSWORD_PER_HOUR: '2',
        RATE_LIMIT_LOGIN_PER_ACCOUNT_PER_HOUR: '4',
        RATE_LIMIT_LOGIN_SLOWDOWN_MS: String(SLOWDOWN_MS),
        RATE_LIMIT_SEARCH_PER_MINUTE: '3',
      },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  function post(path: string, from: string, body: object) {
    return t.http.post(path).set('Origin', SITE).set('X-Forwarded-For', from).send(body);
  }

  function login(from: string, usernameOrEmail: string) {
    return post(API.login, from, { usernameOrEmail, password: 'wrong password' });
  }

  it('logs that they are on, counted in memory', () => {
    expect(t.logs.text()).toContain('Rate limits: counted in memory (per process)');
  });

  it('allows 3 sign-in attempts a minute per address, then 429 with Retry-After', async () => {
    const from = newAddress();
    for (let i = 0; i < 3; i++) await login(from, `nobody_${i}`).expect(401);
    const seconds = retryAfter(await login(from, 'nobody_3'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    // Another address is not held back.
    await login(newAddress(), 'nobody_3').expect(401);
  });

  it('never locks a member out from other addresses: past 4 attempts an hour on the account, each waits', async () => {
    const { account } = await registered(t);
    const member = newAddress();
    // A stranger spends the account's attempts, and more, from addresses of their own, in any letter case.
    for (const name of [account.username, account.username.toUpperCase(), ` ${account.username} `]) {
      const { res, ms } = await timed(login(newAddress(), name));
      expect(res.status).toBe(401);
      expect(ms).toBeLessThan(SLOWDOWN_MS);
    }
    const stranger = newAddress();
    for (let i = 0; i < 3; i++) await login(stranger, account.username).expect(401);
    // The stranger's own address is now held back; the member's is not.
    retryAfter(await login(stranger, account.username));

    // Past the account's 4: every attempt on it waits, the member's right password included, and passes.
    const slowed = await timed(
      post(API.login, member, { usernameOrEmail: account.username, password: account.password }),
    );
    expect(slowed.res.status).toBe(200);
    expect(slowed.ms).toBeGreaterThanOrEqual(SLOWDOWN_MS);
    const wrong = await timed(login(newAddress(), account.username));
    expect(wrong.res.status).toBe(401);
    expect(wrong.ms).toBeGreaterThanOrEqual(SLOWDOWN_MS);
    // Another account is not slowed.
    const other = await timed(login(newAddress(), 'someone_else'));
    expect(other.res.status).toBe(401);
    expect(other.ms).toBeLessThan(SLOWDOWN_MS);
  });

  it('allows 2 registrations an hour per address', async () => {
    const from = newAddress();
    await post(API.register, from, newAccount()).expect(201);
    await post(API.register, from, newAccount()).expect(201);
    const seconds = retryAfter(await post(API.register, from, newAccount()));
    expect(seconds).toBeGreaterThan(60);
    expect(seconds).toBeLessThanOrEqual(3600);
    await post(API.register, newAddress(), newAccount()).expect(201);
  });

  it("mails one reset link per 2 s per e-mail, whoever asks: a stranger's requests only delay the member's", async () => {
    const { account } = await registered(t);
    const mailed = async () => {
      await t.app.get(PasswordResetService).whenIdle();
      return t.mail.to(account.email).length;
    };
    const stranger = newAddress();
    await post(API.forgotPassword, stranger, { email: account.email }).expect(200);
    expect(await mailed()).toBe(1);
    // The stranger's second and third requests, from their address and another.
    for (const from of [stranger, newAddress()]) {
      expect(retryAfter(await post(API.forgotPassword, from, { email: account.email }))).toBeLessThanOrEqual(
        2,
      );
    }
    // The member, from their own address: told to wait the interval at most, then their link arrives.
    const member = newAddress();
    const seconds = retryAfter(
      await post(API.forgotPassword, member, { email: account.email.toUpperCase() }),
    );
    expect(seconds).toBeLessThanOrEqual(2);
    expect(await mailed()).toBe(1);
    await sleep(seconds * 1000 + 100);
    await post(API.forgotPassword, member, { email: account.email }).expect(200);
    expect(await mailed()).toBe(2);
  });

  it('allows 2 reset links an hour per e-mail from one address, and 3 per address', async () => {
    const email = 'victim@example.com';
    const stranger = newAddress();
    await post(API.forgotPassword, stranger, { email }).expect(200);
    await sleep(2100);
    await post(API.forgotPassword, stranger, { email: email.toUpperCase() }).expect(200);
    await sleep(2100);
    expect(retryAfter(await post(API.forgotPassword, stranger, { email }))).toBeGreaterThan(60);
    // From another address the e-mail is still served.
    await post(API.forgotPassword, newAddress(), { email }).expect(200);

    const from = newAddress();
    for (let i = 0; i < 3; i++)
      await post(API.forgotPassword, from, { email: `x${i}@example.com` }).expect(200);
    retryAfter(await post(API.forgotPassword, from, { email: 'x3@example.com' }));
  });

  it('allows 2 reset attempts an hour per address', async () => {
    const from = newAddress();
    const body = { token: 'made-up', newPassword: 'new password 1' };
    await post(API.resetPassword, from, body).expect(400);
    await post(API.resetPassword, from, body).expect(400);
    retryAfter(await post(API.resetPassword, from, body));
  });

  it('allows 3 searches a minute per address, then 429 with Retry-After', async () => {
    const search = (from: string, q = `words ${from}`) =>
      t.http.get(API.search).query({ q }).set('X-Forwarded-For', from);
    const from = newAddress();
    await search(from).expect(200);
    await search(from).expect(200);
    // A bad query counts too.
    await search(from, 'q'.repeat(201)).expect(400);
    const res = await search(from);
    expect(res.status).toBe(429);
    const seconds = Number(res.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(res.body).toEqual({
      statusCode: 429,
      message: `You are searching too fast. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    });
    await search(from).expect(429);
    // Another address searches; reading pastes from the held-back one is not limited.
    await search(newAddress()).expect(200);
    await t.http.get(API.threadsRecent).set('X-Forwarded-For', from).expect(200);
  });

  it('does not limit other routes', async () => {
    const from = newAddress();
    for (let i = 0; i < 10; i++) {
      await t.http.get(API.site).set('X-Forwarded-For', from).expect(200);
    }
  });

  describe('per hour', () => {
    let hourly: TestApp;

    beforeAll(async () => {
      hourly = await createTestApp({
        env: { RATE_LIMITS: 'on', RATE_LIMIT_LOGIN_PER_MINUTE: '10', RATE_LIMIT_LOGIN_PER_HOUR: '2' },
      });
    });

    afterAll(async () => {
      await hourly.close();
    });

    it('allows the hourly number of sign-in attempts per address', async () => {
      const browser = hourly.browser();
      for (const name of ['a_1', 'a_2']) {
        await browser.post(API.login).send({ usernameOrEmail: name, password: 'wrong password' }).expect(401);
      }
      const res = await browser.post(API.login).send({ usernameOrEmail: 'a_3', password: 'wrong password' });
      expect(retryAfter(res)).toBeGreaterThan(60);
    });
  });

  describe('RATE_LIMITS=off', () => {
    let unlimited: TestApp;

    beforeAll(async () => {
      unlimited = await createTestApp({
        env: { RATE_LIMITS: 'off', RATE_LIMIT_LOGIN_PER_MINUTE: '1', RATE_LIMIT_REGISTER_PER_HOUR: '1' },
      });
    });

    afterAll(async () => {
      await unlimited.close();
    });

    it('lets everything through, and the start-up log warns', async () => {
      const browser = unlimited.browser();
      for (let i = 0; i < 5; i++) {
        await browser
          .post(API.login)
          .send({ usernameOrEmail: 'neo', password: 'wrong password' })
          .expect(401);
      }
      await browser.post(API.register).send(newAccount()).expect(201);
      await browser.post(API.register).send(newAccount()).expect(201);
      const warning = unlimited.logs.entries.find((entry) => entry.message.includes('RATE_LIMITS=off'));
      expect(warning?.level).toBe('warn');
    });
  });
});

describe('client addresses behind proxies (TRUST_PROXY)', () => {
  const PLAIN = 'http://forum.internal';
  const apps: TestApp[] = [];

  async function appWith(env: Record<string, string>) {
    const app = await createTestApp({
      env: { PUBLIC_URL: PLAIN, RATE_LIMITS: 'on', RATE_LIMIT_REGISTER_PER_HOUR: '1', ...env },
    });
    apps.push(app);
    return (forwardedFor?: string) => {
      const req = app.http.post(API.register).set('Origin', PLAIN);
      return (forwardedFor === undefined ? req : req.set('X-Forwarded-For', forwardedFor)).send(newAccount());
    };
  }

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  it('over http with no TRUST_PROXY, X-Forwarded-For is not believed: the connection address counts', async () => {
    const register = await appWith({});
    await register(newAddress()).expect(201);
    retryAfter(await register(newAddress()));
  });

  it('TRUST_PROXY=1: the address the one proxy saw counts (the rightmost), whatever a client adds before it', async () => {
    const register = await appWith({ TRUST_PROXY: '1' });
    const client = newAddress();
    await register(`203.0.113.9, ${client}`).expect(201);
    retryAfter(await register(`203.0.113.10, ${client}`));
    await register(`203.0.113.9, ${newAddress()}`).expect(201);
  });

  it('TRUST_PROXY=2: the address the outer of two proxies saw counts', async () => {
    const register = await appWith({ TRUST_PROXY: '2' });
    const client = newAddress();
    await register(`${client}, 10.0.0.1`).expect(201);
    retryAfter(await register(`${client}, 10.0.0.2`));
    await register(`${newAddress()}, 10.0.0.1`).expect(201);
  });

  it('TRUST_PROXY=<addresses>: only those proxies are skipped', async () => {
    const register = await appWith({ TRUST_PROXY: 'loopback, 10.0.0.0/8' });
    const client = newAddress();
    await register(`203.0.113.9, ${client}, 10.1.2.3`).expect(201);
    retryAfter(await register(`203.0.113.10, ${client}, 10.9.9.9`));
    await register(`${newAddress()}, 10.1.2.3`).expect(201);
  });
});

describe('rateLimitThrottlers', () => {
  it('has Discourse-like defaults: per address and per account', () => {
    const rules = rateLimitThrottlers({ enabled: true, ...RATE_LIMIT_DEFAULTS }).map(
      ({ name, ttl, limit }) => `${name}: ${limit} in ${Number(ttl) / 1000}s`,
    );
    expect(rules).toEqual([
      'login-per-address-per-minute: 6 in 60s',
      'login-per-address-per-hour: 30 in 3600s',
      'login-per-account-per-hour: 30 in 3600s',
      'register-per-address-per-hour: 5 in 3600s',
      'forgot-password-per-address-per-hour: 5 in 3600s',
      'forgot-password-per-account-address-per-hour: 3 in 3600s',
      'forgot-password-per-account-per-interval: 1 in 300s',
      'reset-password-per-address-per-hour: 10 in 3600s',
      'change-password-per-address-per-hour: 10 in 3600s',
      'change-password-per-member-per-hour: 10 in 3600s',
      'delete-account-per-address-per-hour: 10 in 3600s',
      'delete-account-per-member-per-hour: 10 in 3600s',
      'verify-email-per-address-per-hour: 10 in 3600s',
      'verify-email-per-member-per-hour: 3 in 3600s',
      'owner-claim-per-address-per-hour: 5 in 3600s',
      'owner-claim-per-member-per-hour: 5 in 3600s',
      'chat-per-member: 5 in 10s',
      'message-per-member-per-minute: 10 in 60s',
      'message-per-member-per-hour: 60 in 3600s',
      'upload-per-member-per-hour: 20 in 3600s',
    ]);
    expect(
      searchRateLimitThrottlers({ enabled: true, ...RATE_LIMIT_DEFAULTS }).map(
        ({ name, ttl, limit }) => `${name}: ${limit} in ${Number(ttl) / 1000}s`,
      ),
    ).toEqual(['search-per-address-per-minute: 30 in 60s']);
  });
});
