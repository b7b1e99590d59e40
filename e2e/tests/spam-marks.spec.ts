import { randomBytes } from 'node:crypto';
import { expect, test } from './test.js';
import { baseURL, expectToast, newAccount, screenshotPath, signInAsOwner, signUp } from './support.js';

test('an admin sees what delete spammer remembered and forgets the domain', async ({ browser }) => {
  test.setTimeout(120_000);
  const headers = { Origin: baseURL() };
  // A domain of its own: the other tests' members (e2e.termpaste.test) must never match it.
  const domain = `spam-${randomBytes(4).toString('hex')}.example`;
  const spammerContext = await browser.newContext();
  const spammer = await signUp(await spammerContext.newPage(), {
    ...newAccount('spambot'),
    email: `bot.${randomBytes(3).toString('hex')}@${domain}`,
  });

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInAsOwner(page);
  const member = (await (
    await page.request.get(`/api/admin/users?q=${encodeURIComponent(spammer.username)}`)
  ).json()) as { users: Array<{ id: number; username: string }> };
  const id = member.users.find((user) => user.username === spammer.username)!.id;
  const deleted = await page.request.post(`/api/admin/users/${id}/spammer`, { headers });
  expect(deleted.status(), await deleted.text()).toBe(200);

  await page.goto('/admin?tab=spam');
  const tab = page.getByRole('tab', { name: 'SPAM MARKS' });
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  const table = page.getByRole('table', { name: 'Spam marks' });
  const row = table.getByRole('row').filter({ hasText: domain });
  await expect(row).toContainText('domain');
  await expect(row).toContainText(spammer.username);
  // The address is there too, by the start of its hash only.
  await expect(table.getByRole('row').filter({ hasText: spammer.username })).toHaveCount(2);
  await expect(table.getByText(/^sha256:[0-9a-f]{12}…$/).first()).toBeVisible();
  await page.screenshot({ path: screenshotPath('spam-marks-1280') });

  await row.getByRole('button', { name: `FORGET domain ${domain}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Forget this spam mark?' });
  await expect(dialog).toContainText(domain);
  await dialog.getByRole('button', { name: 'FORGET' }).click();
  await expectToast(page, 'Spam mark forgotten');
  await expect(table.getByRole('row').filter({ hasText: domain })).toHaveCount(0);

  // The audit log names it.
  await page.goto('/admin?tab=audit');
  await expect(page.getByRole('table', { name: 'Audit log' })).toContainText(`domain ${domain}`);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin?tab=spam');
  await expect(page.getByRole('table', { name: 'Spam marks' })).toContainText(spammer.username);
  await page.screenshot({ path: screenshotPath('spam-marks-390') });
  await context.close();
  await spammerContext.close();
});
