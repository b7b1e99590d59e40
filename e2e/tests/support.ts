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

/** Registers through the API, signing the page's browser context in (the cookie is shared). */
export async function signUp(page: Page, account: Account = newAccount()): Promise<Account> {
  const response = await page.request.post('/api/register', {
    data: account,
    headers: { Origin: baseURL() },
  });
  expect(response.status(), await response.text()).toBe(201);
  return account;
}

/** The toast on screen (one at a time), not the screen reader's copy Radix keeps for a moment. */
export async function expectToast(page: Page, title: string, text?: string) {
  const toast = page.locator('.tp-toast[data-state="open"]');
  await expect(toast).toHaveCount(1);
  await expect(toast.locator('.tp-toast__title')).toHaveText(title);
  if (text) await expect(toast.locator('.tp-toast__description')).toHaveText(text);
}

/** The owner (OWNER_EMAIL): one fixed account for the whole run, which any test may sign in as. */
export const OWNER: Account = { username: 'owner', email: OWNER_EMAIL, password: 'owner-e2e-secret' };

/** Signs the page's context in as the owner (an admin), registering the account the first time. */
export async function signInAsOwner(page: Page): Promise<Account> {
  const headers = { Origin: baseURL() };
  const registered = await page.request.post('/api/register', { data: OWNER, headers });
  if (registered.status() === 201) return OWNER;
  // Another test registered it first (tests run in parallel).
  expect(registered.status(), await registered.text()).toBe(409);
  const login = await page.request.post('/api/login', {
    data: { usernameOrEmail: OWNER.username, password: OWNER.password },
    headers,
  });
  expect(login.status(), await login.text()).toBe(200);
  return OWNER;
}

/** The e2e server's own origin, for the Origin header of API calls made outside the page. */
export const baseURL = () => `http://127.0.0.1:${process.env.E2E_PORT}`;

/** The newest mail written to the outbox for `to`, decoded from quoted-printable. */
export async function readOutboxMail(to: string): Promise<string> {
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
          .map((f) => readFileSync(join(outbox, f), 'utf8'))
          .reverse()
          .find((mail) => mail.includes(to));
        return Boolean(found);
      },
      { timeout: 10_000, message: `a mail to ${to} in ${outbox}` },
    )
    .toBe(true);
  return found!
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
