import { createHash, randomBytes } from 'node:crypto';
import { API, type CurrentUser, LIVE_EVENT } from '@termpaste/contracts';
import { type Browser, PASSWORD, registered, sessionCookie, signedIn } from './accounts.js';
import { connect, type LiveClient } from './live.js';
import type { TestApp } from './test-app.js';
import { waitFor } from './wait-for.js';

/** A member signed in twice (two browsers, two sessions), with each session's cookie. */
export interface TwoSessions {
  user: CurrentUser;
  username: string;
  here: { browser: Browser; cookie: string };
  elsewhere: { browser: Browser; cookie: string };
}

/** The session cookie a signed-in browser holds (its next answer renews it). */
async function cookieOf(browser: Browser): Promise<string> {
  const cookie = sessionCookie(await browser.get(API.currentUser).expect(200))?.split(';')[0];
  if (!cookie) throw new Error('no session cookie');
  return cookie;
}

/** Registers a member (on `t`) and signs them in a second time, in another browser (on `other`). */
export async function twoSessions(t: TestApp, other: TestApp = t): Promise<TwoSessions> {
  const { browser, account, user } = await registered(t);
  const elsewhere = await signedIn(other, account.username);
  return {
    user,
    username: account.username,
    here: { browser, cookie: await cookieOf(browser) },
    elsewhere: { browser: elsewhere, cookie: await cookieOf(elsewhere) },
  };
}

/** Opens a socket with the session cookie and proves it works; `open` collects it for closing later. */
export async function openSocket(
  t: TestApp,
  cookie: string,
  open: LiveClient[],
  path?: string,
): Promise<LiveClient> {
  const client = await connect(t, { cookie, ...(path ? { path } : {}) });
  open.push(client);
  await client.roundTrip();
  return client;
}

/** A live reset token for the member, stored as the mailed link's would be (only its SHA-256). */
export async function resetToken(t: TestApp, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await t.dataSource.query(
    `INSERT INTO password_reset_tokens (user_id, token_hash, expires_at)
     VALUES ($1, $2, now() + interval '1 hour')`,
    [userId, createHash('sha256').update(token).digest('hex')],
  );
  return token;
}

/** Changes the member's password in the session `browser`. */
export async function changePassword(browser: Browser, newPassword = 'a brand new password'): Promise<void> {
  await browser
    .post(API.changePassword)
    .send({ currentPassword: PASSWORD, newPassword })
    .expect(200, { message: 'Your password has been updated' });
}

/** Signs the session `browser` out as the site's own navigation does (GET /api/logout, a document). */
export async function signOutNavigation(browser: Browser): Promise<void> {
  await browser
    .get(API.logout)
    .set('Sec-Fetch-Dest', 'document')
    .set('Sec-Fetch-Site', 'same-origin')
    .expect(302);
}

/** Asserts that the socket was sent `signed_out` as its last frame, then closed with `code`. */
export async function expectSignedOut(client: LiveClient, code: number): Promise<void> {
  expect(await waitFor('the socket to be closed', () => client.closeCode, 5000)).toBe(code);
  expect(client.frames.at(-1)).toEqual({ type: LIVE_EVENT.signedOut });
}
