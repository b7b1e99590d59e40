import type { Browser } from '@playwright/test';
import { expect, test } from './test.js';
import { baseURL, expectToast, newAccount, screenshotPath, signInAsOwner, signUp } from './support.js';

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function memberPage(browser: Browser, prefix: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const account = await signUp(page, newAccount(prefix));
  const me = await page.request.get('/api/auth/user');
  return { page, account, id: ((await me.json()) as { id: number }).id };
}

test('a member uploads an avatar, edits the profile and wears a granted grade in chat', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const member = await memberPage(browser, 'trinity');
  const { page } = member;

  // Settings: read-only username and e-mail, the hint, then an avatar upload.
  await page.goto('/settings');
  const settings = page.getByRole('region', { name: 'PROFILE SETTINGS' });
  await expect(settings.getByText('Username cannot be changed')).toBeVisible();
  await expect(settings.getByLabel('Username')).toHaveValue(member.account.username);
  await expect(settings.getByLabel('Username')).not.toBeEditable();
  await expect(settings.getByLabel('Email')).not.toBeEditable();
  await expect(settings.getByText('Max 10MB, JPG/PNG/GIF')).toBeVisible();
  await settings
    .getByLabel('Avatar image')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expectToast(page, 'Avatar Updated', 'Your avatar has been uploaded successfully');
  const topBarAvatar = page.getByRole('button', { name: 'User menu' }).locator('img');
  await expect(topBarAvatar).toHaveAttribute('src', /\/api\/uploads\/avatars\//);
  const avatarUrl = (await topBarAvatar.getAttribute('src'))!;
  const served = await page.request.get(avatarUrl);
  expect(served.headers()['content-type']).toBe('image/png');
  expect(served.headers()['x-content-type-options']).toBe('nosniff');

  // The profile form saves names and a Markdown bio.
  await settings.getByLabel('First name').fill('Tri');
  await settings.getByLabel('Last name').fill('Nity');
  await settings.getByLabel('Bio').fill('Follows the **white** rabbit.');
  await settings.getByRole('button', { name: 'SAVE' }).click();
  await expectToast(page, 'Profile Updated', 'Your profile has been saved successfully');
  await page.screenshot({ path: screenshotPath('settings') });

  // The avatar shows on the member's paste.
  const created = await page.request.post('/api/threads', {
    data: { title: 'Avatar check', content: 'hello' },
    headers: { Origin: baseURL() },
  });
  const { id: threadId } = (await created.json()) as { id: number };
  await page.goto(`/thread/${threadId}`);
  await expect(
    page.getByRole('region', { name: 'PASTE' }).locator(`img[src="${avatarUrl}"]`).first(),
  ).toBeVisible();
  await page.goto(`/profile/${member.id}`);
  await expect(page.getByRole('region', { name: 'PROFILE' }).locator('strong')).toHaveText('white');

  // No grade yet: /ranks says so and points to Upgrades.
  await page.goto('/ranks');
  await expect(page.getByRole('main').getByRole('link', { name: 'Upgrades' })).toBeVisible();

  // The owner grants a grade; the member selects it on /ranks.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signInAsOwner(owner);
  const granted = await owner.request.put(`/api/admin/users/${member.id}/grades`, {
    data: { grades: ['Cyber Ghost'] },
    headers: { Origin: baseURL() },
  });
  expect(granted.status(), await granted.text()).toBe(200);
  await page.reload();
  const grade = page.getByRole('listitem', { name: 'Cyber Ghost' });
  await grade.getByRole('button', { name: 'Use This' }).click();
  await expectToast(page, 'Rank Updated', 'Your active rank has been updated');
  await expect(grade.getByText('Active')).toBeVisible();
  await page.screenshot({ path: screenshotPath('ranks') });
  await page.goto('/upgrades');
  await expect(page.getByRole('listitem', { name: 'Cyber Ghost' }).getByText('OWNED')).toBeVisible();
  await page.screenshot({ path: screenshotPath('upgrades') });

  // In chat the name carries the grade's style, with the grade in brackets.
  await page.goto('/chat');
  const line = `ghost in the shell ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Message' }).fill(line);
  await page.keyboard.press('Enter');
  const chatLine = page.getByTestId('chat-line').filter({ hasText: line });
  await expect(chatLine.locator('.rank-cyber-ghost').filter({ hasText: '[Cyber Ghost]' })).toBeVisible();
  await expect(
    chatLine.getByRole('link', { name: member.account.username }).locator('.rank-cyber-ghost'),
  ).toHaveCount(1);
  await ownerContext.close();
});

test('a member writes to the staff from Support; the owner reads it in the inbox', async ({ browser }) => {
  test.setTimeout(90_000);
  // The staff first: the owner's account exists before anyone writes to it.
  const ownerContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const owner = await ownerContext.newPage();
  await signInAsOwner(owner);
  const member = await memberPage(browser, 'tank');
  const { page } = member;

  await page.goto('/');
  await page.getByRole('link', { name: 'Support' }).first().click();
  await expect(page).toHaveURL(/\/support$/);
  const form = page.getByRole('form', { name: 'Support request' });
  // Blank fields: the validation toast, and nothing is sent.
  await form.getByRole('button', { name: 'SEND' }).click();
  await expectToast(page, 'Validation Error', 'Please fill in all fields');
  const subject = `Grade request ${member.account.username}`;
  await form.getByLabel('Subject').fill(subject);
  await expect(form.getByTestId('subject-counter')).toHaveText(`${subject.length}/200`);
  await form.getByLabel('Message').fill('May I have **Cyber Ghost**?');
  await page.screenshot({ path: screenshotPath('support'), fullPage: true });
  await form.getByRole('button', { name: 'SEND' }).click();
  await expectToast(page, 'Message sent', 'Your message has been sent to the staff');

  // The owner finds it in the inbox, from the member, marked as a support request.
  await owner.goto('/messages');
  await owner.getByText(`[Support] ${subject}`).click();
  await expect(owner.getByText('May I have')).toBeVisible();
  await expect(owner.getByText(member.account.username).first()).toBeVisible();
  await ownerContext.close();
});
