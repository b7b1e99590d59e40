import { expect, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Screenshots a reviewer can look at after a run: e2e/output/screenshots/<name>.png */
export const screenshotPath = (name: string) => {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'output', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
};

/** The owner's e-mail the e2e server runs with (OWNER_EMAIL); every other account is a plain member. */
export const OWNER_EMAIL = 'owner@e2e.termpaste.test';

export interface Account {
  username: string;
  email: string;
  password: string;
}

export function newAccount(prefix = 'user'): Account {
  const suffix = randomBytes(4).toString('hex');
  return {
    username: `${prefix}_${suffix}`,
    email: `${prefix}.${suffix}@e2e.termpaste.test`,
    password: `pw-${suffix}-secret`,
  };
}

/**
 * Registers through the API, signing the page's browser context in (the cookie is shared), and verifies
 * the e-mail address with the link of the verification mail in the outbox, as a member would.
 */
export async function signUp(page: Page, account: Account = newAccount()): Promise<Account> {
  const response = await page.request.post('/api/register', {
    data: account,
    headers: { Origin: baseURL() },
  });
  expect(response.status(), await response.text()).toBe(201);
  await verifyEmail(page, account.email);
  return account;
}

/** The verification link of the newest verification mail to `to` in the outbox. */
export async function verificationLink(to: string): Promise<string> {
  const mail = await readOutboxMail(to, 'verification');
  const link = /https?:\/\/\S+\/verify-email\?token=[A-Za-z0-9_-]+/.exec(mail)?.[0];
  expect(link, mail).toBeTruthy();
  return link!;
}

/** Opens (through the API) the newest verification link mailed to `to`. */
export async function verifyEmail(page: Page, to: string): Promise<void> {
  const token = new URL(await verificationLink(to)).searchParams.get('token');
  const verified = await page.request.post('/api/verify-email', {
    data: { token },
    headers: { Origin: baseURL() },
  });
  expect(verified.status(), await verified.text()).toBe(200);
}

/** A toast on screen, not the screen reader's copy Radix keeps for a moment. */
export const OPEN_TOAST = '.tp-toast[data-state="open"]';

/** The toast on screen (one at a time). */
export async function expectToast(page: Page, title: string, text?: string) {
  const toast = page.locator(OPEN_TOAST);
  await expect(toast).toHaveCount(1);
  await expect(toast.locator('.tp-toast__title')).toHaveText(title);
  if (text) await expect(toast.locator('.tp-toast__description')).toHaveText(text);
}

/**
 * The next toast the page shows, read in the page itself from the moment of the call: for a toast shown
 * just before the page navigates away. `expectToast` polls, and once a navigation is under way a poll
 * waits for it to finish, so a toast on screen for half a second before a redirect can be missed.
 */
export async function nextToast(page: Page): Promise<() => Promise<{ title: string; description: string }>> {
  // An object around the promise: evaluateHandle would otherwise wait for the promise itself.
  const watch = await page.evaluateHandle((selector) => {
    const open = () => [...document.querySelectorAll(selector)];
    const before = new Set(open());
    const shown = new Promise<{ title: string; description: string }>((resolve) => {
      const observer = new MutationObserver(() => {
        const toast = open().find((element) => !before.has(element));
        if (!toast) return;
        observer.disconnect();
        resolve({
          title: toast.querySelector('.tp-toast__title')?.textContent ?? '',
          description: toast.querySelector('.tp-toast__description')?.textContent ?? '',
        });
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    return { shown };
  }, OPEN_TOAST);
  return () => watch.evaluate((w) => w.shown);
}

/** The owner (OWNER_EMAIL): one fixed account for the whole run, which any test may sign in as. */
export const OWNER: Account = { username: 'owner', email: OWNER_EMAIL, password: 'owner-e2e-secret' };

/**
 * Signs the page's context in as the owner (an admin), registering the account the first time: OWNER_EMAIL
 * becomes owner once its address is verified, so the first test to register it opens the mailed link;
 * the others wait until it is the owner.
 */
export async function signInAsOwner(page: Page): Promise<Account> {
  const headers = { Origin: baseURL() };
  const registered = await page.request.post('/api/register', { data: OWNER, headers });
  if (registered.status() === 201) {
    await verifyEmail(page, OWNER.email);
    return OWNER;
  }
  // Another test registered it first (tests run in parallel).
  expect(registered.status(), await registered.text()).toBe(409);
  const login = await page.request.post('/api/login', {
    data: { usernameOrEmail: OWNER.username, password: OWNER.password },
    headers,
  });
  expect(login.status(), await login.text()).toBe(200);
  await expect
    .poll(async () => (await (await page.request.get('/api/auth/user')).json()).isOwner, {
      message: 'the owner account to be verified by the test that registered it',
    })
    .toBe(true);
  return OWNER;
}

/** The e2e server's own origin, for the Origin header of API calls made outside the page. */
export const baseURL = () => `http://127.0.0.1:${process.env.E2E_PORT}`;

/**
 * The newest mail written to the outbox for `to`, decoded from quoted-printable: by default any but a
 * verification mail (every account gets one at registration), or `'verification'` for that one.
 */
export async function readOutboxMail(to: string, kind: 'other' | 'verification' = 'other'): Promise<string> {
  // The body only: headers are not quoted-printable (a List-Unsubscribe `token=35.…` would lose its `=3`).
  const decode = (mail: string) => {
    const end = /\r?\n\r?\n/.exec(mail);
    const at = end ? end.index + end[0].length : 0;
    return (
      mail.slice(0, at) +
      mail
        .slice(at)
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    );
  };
  const wanted = (mail: string) => mail.includes('/verify-email?token=') === (kind === 'verification');
  const outbox = join(process.env.E2E_DATA_DIR!, 'outbox');
  let found: string | undefined;
  await expect
    .poll(
      () => {
        let files: string[];
        try {
          files = readdirSync(outbox)
            .filter((f) => f.endsWith('.eml'))
            .sort();
        } catch {
          return false;
        }
        found = files
          .map((f) => decode(readFileSync(join(outbox, f), 'utf8')))
          .reverse()
          .find((mail) => mail.includes(to) && wanted(mail));
        return Boolean(found);
      },
      { timeout: 10_000, message: `a mail to ${to} in ${outbox}` },
    )
    .toBe(true);
  return found!;
}
