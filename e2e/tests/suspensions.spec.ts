import type { Browser, Page } from '@playwright/test';
import { expect, test } from './test.js';
import {
  baseURL,
  expectToast,
  newAccount,
  readOutboxMail,
  screenshotPath,
  signInAsOwner,
  signUp,
} from './support.js';

/** A page in a browser context of its own: each account has its own cookies. */
async function memberPage(browser: Browser, prefix: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const account = await signUp(page, newAccount(prefix));
  return { page, account };
}

/** The owner on /admin, the users table filtered to `username`; its row. */
async function ownerOnRow(owner: Page, username: string) {
  await owner.goto('/admin');
  await owner.getByRole('searchbox', { name: 'Filter users by name or e-mail' }).fill(username);
  const row = owner.getByRole('table', { name: 'Users' }).getByRole('row', { name: username, exact: true });
  await expect(row).toBeVisible();
  return row;
}

test('an admin bans a member for a day with a reason; the member is mailed and sees it at sign-in', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const member = await memberPage(browser, 'spammy');
  const quiet = await memberPage(browser, 'loud');

  const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const owner = await ownerContext.newPage();
  await signInAsOwner(owner);

  // BAN: the prompt asks how long and why.
  const row = await ownerOnRow(owner, member.account.username);
  await row.getByRole('button', { name: 'BAN', exact: true }).click();
  const dialog = owner.getByRole('alertdialog', { name: `Ban ${member.account.username}?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Duration' }).selectOption({ label: '1 day' });
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('Links to a pill shop in every reply');
  await owner.screenshot({ path: screenshotPath('suspension-ban-prompt-1280') });
  await dialog.getByRole('button', { name: 'BAN', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expectToast(owner, 'User banned', member.account.username);
  await expect(row.getByText('BANNED', { exact: true })).toBeVisible();
  await expect(row).toContainText(/banned until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await expect(row).toContainText('Links to a pill shop in every reply');

  // The mail says how long and why.
  await expect
    .poll(() => readOutboxMail(member.account.email).catch(() => ''), { timeout: 15_000 })
    .toContain('for 1 day, until');
  expect(await readOutboxMail(member.account.email)).toContain('Reason: Links to a pill shop in every reply');

  // Signed out by the ban; signing in again says until when and why.
  expect((await member.page.request.get('/api/auth/user')).status()).toBe(401);
  await member.page.goto('/login');
  await member.page.getByLabel('Username or email').fill(member.account.username);
  await member.page.getByLabel('Password').fill(member.account.password);
  await member.page.getByRole('button', { name: 'LOGIN' }).click();
  await expectToast(member.page, 'Access Denied');
  await expect(member.page.locator('.tp-toast__description')).toHaveText(
    /^Your account is suspended until \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Reason: Links to a pill shop in every reply$/,
  );
  await expect(member.page).toHaveURL(/\/login$/);
  await member.page.screenshot({ path: screenshotPath('suspension-sign-in-refused') });

  // SILENCE another member, for the row's look; their writes are refused, support is not.
  const quietRow = await ownerOnRow(owner, quiet.account.username);
  await quietRow.getByRole('button', { name: 'SILENCE', exact: true }).click();
  const silence = owner.getByRole('alertdialog', { name: `Silence ${quiet.account.username}?` });
  await silence.getByRole('combobox', { name: 'Duration' }).selectOption({ label: '1 week' });
  await silence.getByRole('textbox', { name: /Reason/ }).fill('Shouting in the chat');
  await silence.getByRole('button', { name: 'SILENCE', exact: true }).click();
  await expectToast(owner, 'User silenced', quiet.account.username);
  await expect(quietRow.getByText('SILENCED', { exact: true })).toBeVisible();
  const post = await quiet.page.request.post('/api/chat/messages', {
    data: { content: 'STILL HERE' },
    headers: { Origin: baseURL() },
  });
  expect(post.status()).toBe(403);
  expect((await post.json()).message).toMatch(
    /^Your account is silenced until .+Reason: Shouting in the chat$/,
  );

  // The users table with both, wide and narrow.
  await owner.getByRole('searchbox', { name: 'Filter users by name or e-mail' }).fill('');
  await expect(row).toBeVisible();
  await owner.screenshot({ path: screenshotPath('suspension-users-1280'), fullPage: true });
  await owner.setViewportSize({ width: 390, height: 844 });
  await owner.getByRole('searchbox', { name: 'Filter users by name or e-mail' }).fill(quiet.account.username);
  await expect(quietRow).toBeVisible();
  await owner.screenshot({ path: screenshotPath('suspension-users-390'), fullPage: true });
  await quietRow.getByRole('button', { name: 'UNSILENCE', exact: true }).scrollIntoViewIfNeeded();
  await owner
    .getByRole('searchbox', { name: 'Filter users by name or e-mail' })
    .fill(member.account.username);
  await row.getByRole('button', { name: 'SILENCE', exact: true }).click();
  await expect(owner.getByRole('alertdialog')).toBeVisible();
  await owner.screenshot({ path: screenshotPath('suspension-silence-prompt-390') });
});
