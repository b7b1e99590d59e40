import type { Browser } from '@playwright/test';
import { expect, test } from './test.js';
import { axe, formatFindings } from './axe.js';
import { baseURL, expectToast, newAccount, readOutboxMail, screenshotPath, signUp } from './support.js';

/** A member in a browser context of their own; no page opened, so no live socket: away. */
async function member(browser: Browser, prefix: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const account = await signUp(page, newAccount(prefix));
  return { page, account };
}

test('an away member is mailed a reply, unsubscribes from the link, and sets their preferences', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const alice = await member(browser, 'alice');
  const bob = await member(browser, 'bob');
  const headers = { Origin: baseURL() };
  const paste = await alice.page.request.post('/api/threads', {
    data: { title: `Alice's mailed paste ${Date.now()}`, content: 'Who answers?' },
    headers,
  });
  expect(paste.status()).toBe(201);
  const { id } = (await paste.json()) as { id: number };
  const reply = await bob.page.request.post(`/api/threads/${id}/replies`, {
    data: { content: 'Bob answers', parentId: null },
    headers,
  });
  expect(reply.status()).toBe(201);

  // Alice has no tab open: the mail comes (MAIL_AWAY_MINUTES=0 in the e2e server), linking to the paste.
  const mail = await readOutboxMail(alice.account.email);
  expect(mail).toContain(`${bob.account.username} replied to your paste`);
  expect(mail).toContain(`${baseURL()}/thread/${id}`);
  expect(mail).toMatch(/List-Unsubscribe:\s*<http:\/\/\S+\/api\/unsubscribe\?token=/);
  expect(mail).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  const link = /http:\/\/[^\s<>/]+\/unsubscribe\?token=\d+\.reply\.[A-Za-z0-9_-]{43}/.exec(mail)?.[0];
  expect(link, mail).toBeTruthy();

  // The link, opened where nobody is signed in: says what it stops, then stops it.
  const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await visitor.newPage();
  await page.goto(link!);
  await expect(
    page.getByText(`Stop e-mails about: replies to you for ${alice.account.username}?`),
  ).toBeVisible();
  expect(formatFindings(await axe(page, 'unsubscribe @1280'))).toBe('');
  await page.screenshot({ path: screenshotPath('unsubscribe-1280') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath('unsubscribe-390') });
  await page.getByRole('button', { name: 'UNSUBSCRIBE' }).click();
  await expect(page.getByRole('status')).toContainText('[OK] No more e-mails about: replies to you');
  await page.screenshot({ path: screenshotPath('unsubscribe-done-390') });

  // Alice's settings show it, and save another change with a toast.
  await alice.page.goto('/settings/notifications');
  const replies = alice.page.getByRole('group', { name: 'Replies to you' });
  await expect(replies.getByRole('radio', { name: 'SITE ONLY' })).toBeChecked();
  await alice.page
    .getByRole('group', { name: /Digest/ })
    .getByText('DAILY')
    .click();
  await alice.page.getByRole('group', { name: 'Mentions of you' }).getByText('SITE ONLY').click();
  await alice.page.getByRole('button', { name: 'SAVE' }).click();
  await expectToast(alice.page, 'Notification preferences saved');
  expect(formatFindings(await axe(alice.page, 'notification preferences @1280'))).toBe('');
  await alice.page.screenshot({ path: screenshotPath('notification-preferences-1280'), fullPage: true });
  await alice.page.setViewportSize({ width: 390, height: 844 });
  await alice.page.screenshot({ path: screenshotPath('notification-preferences-390'), fullPage: true });
  expect(formatFindings(await axe(alice.page, 'notification preferences @390'))).toBe('');
  const saved = await alice.page.request.get('/api/user/notification-preferences');
  expect(await saved.json()).toMatchObject({ reply: 'site', mention: 'site', digest: 'daily' });

  // A mail client's one-click POST: no cookie, no Origin of ours.
  const token = new URL(link!).searchParams.get('token')!;
  const oneClick = await visitor.request.post(`/api/unsubscribe?token=${encodeURIComponent(token)}`, {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://mail.example.net' },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(oneClick.status()).toBe(200);
});
