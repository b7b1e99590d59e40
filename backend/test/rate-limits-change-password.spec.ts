import { API, SETTINGS_MESSAGES } from '@termpaste/contracts';
import { type Browser, PASSWORD, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const TOO_MANY = /^Too many password changes\. Try again in (\d+) seconds?\.$/;
const WRONG_CURRENT = { statusCode: 400, message: 'Current password is incorrect' };

let address = 0;
/** A client address of its own (TRUST_PROXY=1: the app believes the one proxy's X-Forwarded-For). */
function newAddress(): string {
  address++;
  return `203.0.113.${address}`;
}

describe('rate limit of POST /api/change-password: per member and per address', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMITS: 'on',
        RATE_LIMIT_CHANGE_PASSWORD_PER_HOUR: '2',
        TRUST_PROXY: '1',
        // Every member registers from 127.0.0.1.
        RATE_LIMIT_REGISTER_PER_HOUR: '1000',
      },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  /** A change attempt; `currentPassword` wrong by default, so that the password stays as it is. */
  function attempt(browser: Browser, from: string, currentPassword = 'not my password') {
    return browser
      .post(API.changePassword)
      .set('X-Forwarded-For', from)
      .send({ currentPassword, newPassword: 'a brand new password' });
  }

  /** Checks a 429: its text, and a Retry-After header that says the same. */
  function expectTooMany(res: {
    status: number;
    body: { message?: string };
    headers: Record<string, string>;
  }) {
    expect(res.status).toBe(429);
    const seconds = Number(TOO_MANY.exec(res.body.message ?? '')?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(3600);
    expect(res.body).toEqual({ statusCode: 429, message: SETTINGS_MESSAGES.passwordChangeTooMany(seconds) });
    expect(res.headers['retry-after']).toBe(String(seconds));
  }

  it('allows 2 attempts an hour per member, from any address, then 429; the right password too', async () => {
    const { browser, account } = await registered(t);
    await attempt(browser, newAddress()).expect(400, WRONG_CURRENT);
    await attempt(browser, newAddress()).expect(400, WRONG_CURRENT);
    expectTooMany(await attempt(browser, newAddress(), PASSWORD));
    // The refused change changed nothing: the old password still opens the account.
    await t
      .browser()
      .post(API.login)
      .send({ usernameOrEmail: account.username, password: PASSWORD })
      .expect(200);
    // Another member is not held back.
    const other = await registered(t);
    await attempt(other.browser, newAddress(), PASSWORD).expect(200);
  });

  it('allows 2 attempts an hour per address, whoever the member, then 429', async () => {
    const from = newAddress();
    await attempt((await registered(t)).browser, from).expect(400, WRONG_CURRENT);
    await attempt((await registered(t)).browser, from).expect(400, WRONG_CURRENT);
    const third = await registered(t);
    expectTooMany(await attempt(third.browser, from, PASSWORD));
    // The same member from another address goes through.
    await attempt(third.browser, newAddress(), PASSWORD).expect(200);
  });

  it('counts no visitor: a 401 before the limit', async () => {
    const from = newAddress();
    for (let i = 0; i < 3; i++) await attempt(t.browser(), from).expect(401);
    await attempt((await registered(t)).browser, from, PASSWORD).expect(200);
  });

  it('says "1 second" in the singular', () => {
    expect(SETTINGS_MESSAGES.passwordChangeTooMany(1)).toBe(
      'Too many password changes. Try again in 1 second.',
    );
    expect(SETTINGS_MESSAGES.passwordChangeTooMany(30)).toBe(
      'Too many password changes. Try again in 30 seconds.',
    );
  });
});
