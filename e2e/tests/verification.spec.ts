import { expect, test } from './test.js';
import { baseURL, expectToast, newAccount, screenshotPath, verificationLink } from './support.js';

const UNVERIFIED =
  'Verify your e-mail address first: open the link we mailed you (or re-send it from the banner)';

test('a new member reads but does not post until the mailed link is opened; then the banner goes and they post', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const account = newAccount('fresh');

  // Register in the browser: signed in, with the banner.
  await page.goto('/register');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm password').fill(account.password);
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  await expect(page).toHaveURL(/\/$/);
  const banner = page.getByRole('status', { name: 'E-mail address not verified' });
  await expect(banner).toContainText('[!] UNVERIFIED');
  await expect(banner).toContainText(account.email);
  await page.screenshot({ path: screenshotPath('verify-banner'), fullPage: true });

  // A paste is refused with the server's text.
  await page.goto('/thread/new');
  await page.getByLabel('Title').fill('Too early');
  await page.getByLabel('Content').fill('not yet');
  await page.getByRole('button', { name: 'ADD PASTE' }).click();
  await expectToast(page, 'Error', UNVERIFIED);
  await expect(page).toHaveURL(/\/thread\/new$/);
  await page.screenshot({ path: screenshotPath('verify-refused-paste'), fullPage: true });

  // RE-SEND mails a new link (the first one stops working).
  const first = await verificationLink(account.email);
  await banner.getByRole('button', { name: 'RE-SEND' }).click();
  await expectToast(page, 'Verification Mail Sent', 'A new verification link is on its way');
  await expect.poll(() => verificationLink(account.email)).not.toBe(first);
  const link = await verificationLink(account.email);

  // The old link fails; the new one verifies, and the banner goes.
  await page.goto(new URL(first).pathname + new URL(first).search);
  await expect(page.getByText('[FAIL]')).toBeVisible();
  await expect(page.getByText('Invalid or expired verification link')).toBeVisible();
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByText('[OK]')).toBeVisible();
  await expect(page.getByText('Your e-mail address is verified')).toBeVisible();
  await expect(banner).toHaveCount(0);
  await page.screenshot({ path: screenshotPath('verify-email-ok'), fullPage: true });

  // Now the paste goes through.
  await page.goto('/thread/new');
  await page.getByLabel('Title').fill('Verified at last');
  await page.getByLabel('Content').fill('hello');
  await page.getByRole('button', { name: 'ADD PASTE' }).click();
  await expect(page).toHaveURL(/\/thread\/\d+$/);
  await expectToast(page, 'Paste created');
});

test('a visitor opening the link sees the outcome in the sign-in frame', async ({ page, browser }) => {
  const account = newAccount('visitor');
  // Registered in another browser: this page stays a visitor's.
  const context = await browser.newContext();
  const res = await context.request.post(`${baseURL()}/api/register`, {
    data: account,
    headers: { Origin: baseURL() },
  });
  expect(res.status()).toBe(201);
  await context.close();

  const link = await verificationLink(account.email);
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByText('[OK]')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await page.screenshot({ path: screenshotPath('verify-email-visitor'), fullPage: true });
});
