import type { CurrentUser } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Screenshots a reviewer can look at after a run: e2e/output/screenshots/<name>.png */
export const screenshotPath = (name: string) => {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'output', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
};

/**
 * A signed-in member, answered for `GET /api/auth/user` in the browser only. Accounts arrive with the
 * accounts capability; until then the signed-in shell is reached this way.
 */
export const MEMBER = sampleCurrentUser();

export async function signInAs(page: Page, user: CurrentUser = MEMBER) {
  await page.route('**/api/auth/user', (route) => route.fulfill({ json: user }));
}
