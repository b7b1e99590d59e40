import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { API, type CurrentUser, type RegisterBody } from '@termpaste/contracts';
import { OUTBOX_DIR } from '../../src/infra/mail/mail.processor.js';
import { OwnerService } from '../../src/modules/auth/owner.service.js';
import { parseMessage } from './eml.js';
import type { TestApp } from './test-app.js';
import { waitFor } from './wait-for.js';

export const PASSWORD = 'correct horse battery staple';

let sequence = 0;

/** Registration details no other test uses. */
export function newAccount(overrides: Partial<RegisterBody> = {}): RegisterBody {
  const id = `${Date.now().toString(36)}${(sequence++).toString(36)}`;
  return { username: `user_${id}`, email: `user_${id}@example.com`, password: PASSWORD, ...overrides };
}

export type Browser = ReturnType<TestApp['browser']>;

/**
 * Registers through the API in a new browser, signed in, and verifies the address through the recorded
 * mail's link. Without OWNER_EMAIL the database's first account then claims the forum with a setup code,
 * as before setup codes existed. `user` is the member as `GET /api/auth/user` shows them afterwards.
 */
export async function registered(
  t: TestApp,
  overrides: Partial<RegisterBody> = {},
): Promise<{ browser: Browser; account: RegisterBody; user: CurrentUser }> {
  const { browser, account, user } = await registeredUnverified(t, overrides);
  return { browser, account, user: await verifiedAfterRegistration(t, browser, account, user) };
}

/**
 * What registered() does after the registration itself: verifies the address through its mail, makes the
 * database's first account owner (without OWNER_EMAIL), and returns the member as they are then.
 */
export async function verifiedAfterRegistration(
  t: TestApp,
  browser: Browser,
  account: RegisterBody,
  user: CurrentUser,
): Promise<CurrentUser> {
  await verifyByMail(t, account.email);
  if (!t.config.ownerEmail) await claimOwnerIfFirst(t, browser, user.id);
  const current = await browser.get(API.currentUser);
  if (current.status === 200) return current.body as CurrentUser;
  // With an https PUBLIC_URL the session cookie is Secure, and the tests' plain http never sends it back.
  const [row]: Array<{ is_owner: boolean; is_admin: boolean }> = await t.dataSource.query(
    'SELECT is_owner, is_admin FROM users WHERE id = $1',
    [user.id],
  );
  return { ...user, emailVerified: true, isOwner: row!.is_owner, isAdmin: row!.is_admin };
}

/** Registers through the API in a new browser (signed in), leaving the e-mail address unverified. */
export async function registeredUnverified(
  t: TestApp,
  overrides: Partial<RegisterBody> = {},
): Promise<{ browser: Browser; account: RegisterBody; user: CurrentUser }> {
  const browser = t.browser();
  const account = newAccount(overrides);
  const res = await browser.post(API.register).send(account);
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return { browser, account, user: res.body as CurrentUser };
}

/** The token of the newest verification link mailed to `email`, if any. */
export function verificationToken(t: TestApp, email: string): string | undefined {
  const mail = t.mail
    .to(email)
    .filter((message) => message.jobId?.startsWith('verify-email-'))
    .at(-1);
  return mail && tokenOf(mail.text);
}

/** With `queuedMail`, the token of the newest verification mail to `email` the queue wrote to the outbox. */
async function outboxVerificationToken(t: TestApp, email: string): Promise<string | undefined> {
  if (t.config.smtpUrl) return undefined;
  const dir = path.join(t.config.dataDir, OUTBOX_DIR);
  return waitFor(`a verification mail to ${email} in ${dir}`, async () => {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names
      .filter((file) => file.endsWith('.eml'))
      .sort()
      .reverse()) {
      const message = parseMessage(await readFile(path.join(dir, name), 'utf8'));
      if (message.headers.get('to')?.toLowerCase() !== email.toLowerCase()) continue;
      const token = tokenOf(message.body);
      if (token) return token;
    }
    return undefined;
  });
}

function tokenOf(text: string): string | undefined {
  return /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
}

/**
 * Opens the newest verification link mailed to `email` (as a browser that is not signed in), taking that
 * mail out of `t.mail` as a member's inbox would have it read.
 */
export async function verifyByMail(t: TestApp, email: string): Promise<void> {
  const mail = t.mail.takeVerification(email);
  const token = mail ? tokenOf(mail.text) : await outboxVerificationToken(t, email);
  if (!token) throw new Error(`no verification mail to ${email}`);
  const res = await t.browser().post(API.verifyEmail).send({ token });
  if (res.status !== 200) throw new Error(`verification failed: ${res.status} ${res.text}`);
}

/** The first account of the database claims the forum with a new setup code, if nobody owns it. */
async function claimOwnerIfFirst(t: TestApp, browser: Browser, userId: number): Promise<void> {
  const [first]: Array<{ id: number }> = await t.dataSource.query('SELECT min(id) AS id FROM users');
  if (first?.id !== userId) return;
  const issued = await t.app.get(OwnerService).issueSetupCode();
  if (!issued.issued) return;
  const res = await browser.post(API.ownerClaim).send({ code: issued.code });
  // A Secure cookie (https PUBLIC_URL) is not sent over http: the route's service itself, then.
  if (res.status === 401) return t.app.get(OwnerService).claim(userId, issued.code);
  if (res.status !== 200) throw new Error(`owner claim failed: ${res.status} ${res.text}`);
}

/** Signs in in a new browser. */
export async function signedIn(t: TestApp, usernameOrEmail: string, password = PASSWORD): Promise<Browser> {
  const browser = t.browser();
  const res = await browser.post(API.login).send({ usernameOrEmail, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return browser;
}

/** The value of a response's session cookie, if it set one. */
export function sessionCookie(res: { headers: Record<string, unknown> }): string | undefined {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  return cookies.find((cookie) => cookie.startsWith('termpaste.sid='));
}
