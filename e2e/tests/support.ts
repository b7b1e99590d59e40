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
