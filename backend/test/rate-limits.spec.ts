import { API } from '@termpaste/contracts';
import { RATE_LIMIT_DEFAULTS } from '../src/config/config.js';
import { rateLimitThrottlers } from '../src/modules/auth/rate-limit.guard.js';
import { newAccount, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const SITE = 'https://forum.example.com';
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
        RATE_LIMIT_RESET_PASSWORD_PER_HOUR: '2',
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

  it('allows 3 sign-in attempts a minute per account, whatever the address and letter case', async () => {
    const { account } = await registered(t);
    await login(newAddress(), account.username).expect(401);
    await login(newAddress(), account.username.toUpperCase()).expect(401);
    await login(newAddress(), ` ${account.username} `).expect(401);
    retryAfter(await login(newAddress(), account.username));
    // The right password does not get past it either; another account from that address does.
    const from = newAddress();
    retryAfter(
      await post(API.login, from, { usernameOrEmail: account.username, password: account.password }),
    );
    await login(from, 'someone_else').expect(401);
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

  it('allows 2 reset links an hour per e-mail and 3 per address', async () => {
    const email = 'victim@example.com';
    await post(API.forgotPassword, newAddress(), { email }).expect(200);
    await post(API.forgotPassword, newAddress(), { email: email.toUpperCase() }).expect(200);
    retryAfter(await post(API.forgotPassword, newAddress(), { email }));

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
      'login-per-account-per-minute: 6 in 60s',
      'register-per-address-per-hour: 5 in 3600s',
      'forgot-password-per-address-per-hour: 5 in 3600s',
      'forgot-password-per-account-per-hour: 3 in 3600s',
      'reset-password-per-address-per-hour: 10 in 3600s',
      'change-password-per-address-per-hour: 10 in 3600s',
      'change-password-per-member-per-hour: 10 in 3600s',
      'verify-email-per-address-per-hour: 10 in 3600s',
      'verify-email-per-member-per-hour: 3 in 3600s',
      'owner-claim-per-address-per-hour: 5 in 3600s',
      'owner-claim-per-member-per-hour: 5 in 3600s',
      'chat-per-member: 5 in 10s',
      'message-per-member-per-minute: 10 in 60s',
      'message-per-member-per-hour: 60 in 3600s',
      'upload-per-member-per-hour: 20 in 3600s',
    ]);
  });
});
