import type { Browser, Page } from '@playwright/test';
import { expect, test } from './test.js';
import {
  baseURL,
  expectToast,
  newAccount,
  OWNER,
  OWNER_EMAIL,
  screenshotPath,
  signInAsOwner,
  signUp,
} from './support.js';

/** The second origin playwright.config.ts serves the admin remote's dist/ from. */
const adminOrigin = () => `http://127.0.0.1:${process.env.E2E_ADMIN_PORT}`;

/** A page in a browser context of its own: each account has its own cookies and sockets. */
async function memberPage(browser: Browser, prefix: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const account = await signUp(page, newAccount(prefix));
  return { page, account };
}

async function confirmDialog(page: Page, button: string) {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

test('the owner runs the admin panel, loaded from its own origin; a banned member is cut off', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const member = await memberPage(browser, 'mallory');

  // A member is refused, and the panel asks the API for nothing.
  const memberAdminCalls: string[] = [];
  member.page.on('request', (request) => {
    if (request.url().includes('/api/admin/')) memberAdminCalls.push(request.url());
  });
  await member.page.goto('/admin');
  await expect(member.page.getByText('ACCESS DENIED [403]')).toBeVisible();
  await expect(member.page.getByText('Admin privileges required')).toBeVisible();
  expect(memberAdminCalls).toEqual([]);
  // The member stays on home with a live connection, to be cut off below.
  await member.page.goto('/');
  await expect(member.page.getByRole('link', { name: 'Hardest Posts' })).toBeVisible();

  // The owner opens /admin: the shell loads the admin remote from the second origin.
  const ownerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const owner = await ownerContext.newPage();
  await signInAsOwner(owner);
  const requested: string[] = [];
  owner.on('request', (request) => requested.push(request.url()));
  await owner.goto('/admin');
  const table = owner.getByRole('table', { name: 'Users' });
  await expect(table).toBeVisible();

  const manifest = (await (await owner.request.get('/remotes.json')).json()) as Record<string, string>;
  expect(manifest.admin).toBe(`${adminOrigin()}/remoteEntry.js`);
  expect(requested).toContain(`${adminOrigin()}/remoteEntry.js`);
  // Its chunks resolve against where remoteEntry.js came from (assetPrefix 'auto'), not the shell.
  expect(requested.filter((url) => url.startsWith(`${adminOrigin()}/static/`)).length).toBeGreaterThan(0);
  expect(requested.filter((url) => url.includes('/remotes/admin/'))).toEqual([]);
  // Its calls go to the API on the shell's origin, with the shell's session.
  expect(requested).toContainEqual(expect.stringMatching(new RegExp(`^${baseURL()}/api/admin/users`)));
  const fromAdminOrigin = await owner.evaluate(
    (origin) =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.startsWith(origin)).length,
    adminOrigin(),
  );
  expect(fromAdminOrigin).toBeGreaterThan(0);

  // The owner's row: [OWNER], 'Protected Account', no actions.
  const filter = owner.getByRole('searchbox', { name: 'Filter users by name or e-mail' });
  await filter.fill(OWNER_EMAIL);
  const ownerRow = table.getByRole('row', { name: OWNER.username, exact: true });
  await expect(ownerRow).toContainText('[OWNER]');
  await expect(ownerRow).toContainText(OWNER_EMAIL);
  await expect(ownerRow.getByText('Protected Account')).toBeVisible();
  await expect(ownerRow.getByRole('button')).toHaveCount(0);

  // Ban the member, behind the confirm prompt.
  await filter.fill(member.account.username);
  const row = table.getByRole('row', { name: member.account.username, exact: true });
  await expect(row.getByText('ACTIVE', { exact: true })).toBeVisible();
  await expect(row).toContainText(member.account.email);
  await row.getByRole('button', { name: 'BAN', exact: true }).click();
  await confirmDialog(owner, 'BAN');
  await expectToast(owner, 'User banned');
  await expect(row.getByText('BANNED', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'UNBAN', exact: true })).toBeVisible();
  // The whole table, newest first: the member just banned is near the top.
  await filter.fill('');
  await expect(owner.getByText(/^Showing \d+ users$/)).toBeVisible();
  await expect(row).toBeVisible();
  await owner.screenshot({ path: screenshotPath('admin-users'), fullPage: true });

  // The member's open page is cut off: the session is revoked, and the page goes to sign in (at once by
  // the live signed_out event, or at its next navigation by the 401).
  expect((await member.page.request.get('/api/auth/user')).status()).toBe(401);
  await member.page
    .getByRole('link', { name: 'Hardest Posts' })
    .click({ timeout: 2_000 })
    .catch(() => undefined);
  await expect(member.page).toHaveURL(/\/login$/);
  await expect(member.page.getByLabel('Username or email')).toBeVisible();

  // Unban: the member may sign in again.
  await filter.fill(member.account.username);
  await row.getByRole('button', { name: 'UNBAN', exact: true }).click();
  await confirmDialog(owner, 'UNBAN');
  await expectToast(owner, 'User unbanned');
  await expect(row.getByText('ACTIVE', { exact: true })).toBeVisible();
  const login = await member.page.request.post('/api/login', {
    data: { usernameOrEmail: member.account.username, password: member.account.password },
    headers: { Origin: baseURL() },
  });
  expect(login.status(), await login.text()).toBe(200);

  // The audit log has both, newest first.
  await owner.getByRole('tab', { name: 'AUDIT LOG' }).click();
  await expect(owner).toHaveURL(/\/admin\?tab=audit$/);
  await owner.getByRole('searchbox', { name: 'Filter by name' }).fill(member.account.username);
  const log = owner.getByRole('table', { name: 'Audit log' });
  const entries = log.getByRole('row').filter({ hasText: member.account.username });
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText('Unbanned user');
  await expect(entries.nth(1)).toContainText('Banned user');
  await expect(entries.nth(0).getByRole('link', { name: OWNER.username })).toBeVisible();
  await owner.getByRole('combobox', { name: 'Filter by action' }).selectOption({ label: 'Banned user' });
  await expect(entries).toHaveCount(1);
  await owner.getByRole('combobox', { name: 'Filter by action' }).selectOption({ label: 'All actions' });
  await owner.getByRole('searchbox', { name: 'Filter by name' }).fill('');
  await expect(log.getByRole('row').filter({ hasText: member.account.username })).toHaveCount(2);
  await owner.screenshot({ path: screenshotPath('admin-audit'), fullPage: true });

  await Promise.all([member.page.context().close(), ownerContext.close()]);
});
