import { API, PAGES } from '@termpaste/contracts';
import { PasswordResetService } from '../src/modules/auth/password-reset.service.js';
import { PASSWORD, registered, signedIn } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const SENT = { message: 'If an account exists for that email, a reset link has been sent.' };
const INVALID_TOKEN = { statusCode: 400, message: 'Invalid or expired reset token' };

describe('password reset', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { PUBLIC_URL: 'https://forum.example.com', PRODUCT_NAME: 'Pastebin of Doom' },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  /** Asks for a link (as a browser on the public origin) and returns the token it mailed, if any. */
  async function requestLink(email: string): Promise<string | undefined> {
    const before = t.mail.to(email).length;
    await t
      .browser()
      .post(API.forgotPassword)
      .set('Origin', 'https://forum.example.com')
      .send({ email })
      .expect(200, SENT);
    await t.app.get(PasswordResetService).whenIdle();
    const mail = t.mail.to(email).slice(before).at(-1);
    return mail && /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  }

  function reset(token: string, newPassword = 'a whole new password') {
    return t.browser().post(API.resetPassword).send({ token, newPassword });
  }

  it('mails a single-use link to the reset page, valid for an hour, storing only its hash', async () => {
    const { account, user } = await registered(t, { email: 'Morpheus@Nebuchadnezzar.example' });
    const token = await requestLink('morpheus@nebuchadnezzar.example');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url

    const [mail] = t.mail.to(account.email);
    expect(mail).toMatchObject({ to: account.email, subject: 'Reset your Pastebin of Doom password' });
    expect(mail!.jobId).toMatch(/^password-reset-\d+$/); // a retried enqueue mails once
    expect(mail!.text).toContain(`https://forum.example.com${PAGES.resetPassword}?token=${token}`);
    expect(mail!.text).toContain('1 hour');

    const rows = await t.dataSource.query(
      `SELECT token_hash, used_at, expires_at - created_at AS lifetime FROM password_reset_tokens
       WHERE user_id = $1`,
      [user.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].token_hash).not.toContain(token);
    expect(rows[0].used_at).toBeNull();
    expect(rows[0].lifetime).toMatchObject({ hours: 1 });
  });

  it('answers a known and an unknown address identically, and as fast', async () => {
    const { account } = await registered(t);
    const ask = async (email: string) => {
      const started = process.hrtime.bigint();
      const res = await t.browser().post(API.forgotPassword).send({ email }).expect(200);
      return { res, ms: Number(process.hrtime.bigint() - started) / 1e6 };
    };
    const known = await ask(account.email);
    const unknown = await ask('nobody@nowhere.example');
    expect(unknown.res.text).toBe(known.res.text);
    expect(JSON.parse(known.res.text)).toEqual(SENT);
    const headers = (res: typeof known.res) => {
      // The date and the request id differ from one response to the next, whatever the address.
      const { date: _date, 'x-request-id': _id, ...rest } = res.headers;
      return rest;
    };
    expect(headers(unknown.res)).toEqual(headers(known.res));
    // The work for a known address happens after the reply: neither waits for hashing or mail.
    expect(known.ms).toBeLessThan(200);
    await t.app.get(PasswordResetService).whenIdle();
    expect(t.mail.to(account.email)).toHaveLength(1);
    expect(t.mail.to('nobody@nowhere.example')).toHaveLength(0);
  });

  it('sets the new password and signs the user out everywhere', async () => {
    const { browser, account } = await registered(t);
    const elsewhere = await signedIn(t, account.username);
    const token = (await requestLink(account.email))!;

    await reset(token).expect(200, {
      message: 'Your password has been reset. You can now sign in with it.',
    });

    await browser.get(API.currentUser).expect(401);
    await elsewhere.get(API.currentUser).expect(401);
    await t
      .browser()
      .post(API.login)
      .send({ usernameOrEmail: account.username, password: PASSWORD })
      .expect(401);
    await signedIn(t, account.username, 'a whole new password');
  });

  it('takes a token once', async () => {
    const { account } = await registered(t);
    const token = (await requestLink(account.email))!;
    await reset(token).expect(200);
    await reset(token, 'yet another password').expect(400, INVALID_TOKEN);
    await signedIn(t, account.username, 'a whole new password');
  });

  it('refuses an expired token', async () => {
    const { account, user } = await registered(t);
    const token = (await requestLink(account.email))!;
    await t.dataSource.query(
      "UPDATE password_reset_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [user.id],
    );
    await reset(token).expect(400, INVALID_TOKEN);
    await signedIn(t, account.username, PASSWORD);
  });

  it('voids older links when a newer one is asked for', async () => {
    const { account } = await registered(t);
    const first = (await requestLink(account.email))!;
    const second = (await requestLink(account.email))!;
    expect(second).not.toBe(first);
    await reset(first).expect(400, INVALID_TOKEN);
    await reset(second).expect(200);
  });

  it('refuses a made-up token', async () => {
    await reset('A'.repeat(43)).expect(400, INVALID_TOKEN);
  });

  it('refuses a short new password before looking at the token', async () => {
    const res = await reset('whatever', 'short').expect(400);
    expect(res.body.message).toBe('newPassword: New password must be at least 8 characters');
  });

  it('mails no link to a banned account', async () => {
    const { account, user } = await registered(t);
    await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [user.id]);
    expect(await requestLink(account.email)).toBeUndefined();
  });
});
