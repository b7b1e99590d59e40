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
  type Account,
} from './support.js';

/** A verified member in a browser context of their own (cookies, sockets). */
async function memberPage(
  browser: Browser,
  prefix: string,
  width = 1280,
): Promise<{ page: Page; account: Account }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const account = await signUp(page, newAccount(prefix));
  return { page, account };
}

/** Flags the paste on its page: FLAG, the reason, SEND; the toast, and the button reads FLAGGED. */
async function flagPaste(page: Page, id: number | string, title: string, shot?: string) {
  await page.goto(`/thread/${id}`);
  const paste = page.getByRole('region', { name: 'PASTE' });
  await paste.getByRole('button', { name: `FLAG paste ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Flag for the staff' });
  await expect(dialog).toBeVisible();
  // Keyboard: the reasons are a radio group the arrows move through.
  await dialog.getByRole('radio', { name: 'Spam' }).check();
  if (shot) await page.screenshot({ path: screenshotPath(shot) });
  await dialog.getByRole('button', { name: 'SEND' }).click();
  await expectToast(page, 'Flag sent. The staff will review it.');
  await expect(dialog).toBeHidden();
  await expect(paste.getByRole('button', { name: `FLAGGED paste ${title}` })).toBeDisabled();
}

test('three members flag a spam paste; it is hidden; staff agree and suspend its author', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const headers = { Origin: baseURL() };

  // The spammer, three verified members who flag the paste and a fourth who reads it, signed up together:
  // what is tested here is flagging, not sign-up, and each sign-up mostly waits for its verification mail.
  const [spammer, flagger1, flagger2, flagger3, other] = await Promise.all([
    memberPage(browser, 'spammer'),
    memberPage(browser, 'flagger'),
    memberPage(browser, 'flagger'),
    memberPage(browser, 'flagger'),
    memberPage(browser, 'reader'),
  ]);
  const flaggers = [flagger1!, flagger2!, flagger3!];

  // The spammer posts.
  const title = `CHEAP PILLS ${spammer.account.username}`;
  const created = await spammer.page.request.post('/api/threads', {
    data: { title, content: '## BUY NOW\n\nVisit pills.example for the best prices!\n' },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;

  // The author has no FLAG on their own paste.
  await spammer.page.goto(`/thread/${id}`);
  await expect(spammer.page.getByRole('heading', { name: title })).toBeVisible();
  await expect(spammer.page.getByRole('button', { name: /^FLAG/ })).toHaveCount(0);

  // Three verified members flag it from its page.
  await flagPaste(flaggers[0]!.page, id, title, 'review-flag-dialog-1280');
  await flagPaste(flaggers[1]!.page, id, title);
  // Two flags: still shown to others.
  await other.page.goto(`/thread/${id}`);
  await expect(other.page.getByRole('heading', { name: title })).toBeVisible();
  await flagPaste(flaggers[2]!.page, id, title);

  // The third flag hides it for everyone at once: another member and a visitor.
  await other.page.reload();
  await expect(other.page.getByText('[hidden pending review]')).toBeVisible();
  await expect(other.page.getByText('Thread not found [404]')).toHaveCount(0);
  // A visitor has no paste pages (the landing page only): the API tells them it is hidden.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.request.get(`/api/threads/${id}`);
  expect(visitor.status()).toBe(404);
  expect(((await visitor.json()) as { message: string }).message).toBe('This paste is hidden pending review');
  // Its author still reads it, and is told.
  await spammer.page.reload();
  await expect(
    spammer.page.getByText(
      'Hidden pending review after flags by members. You can still edit it; staff will decide.',
    ),
  ).toBeVisible();

  // The owner opens the review queue: the item with its three flags; the tab counts the open items.
  const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const owner = await ownerContext.newPage();
  await signInAsOwner(owner);
  await owner.goto('/admin/review?reason=spam');
  // The sidebar's Review item counts the open items too.
  await expect(
    owner.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: /^Review \d+$/ }),
  ).toBeVisible();
  await expect(owner.getByRole('tab', { name: /^REVIEW \(\d+\)$/ })).toHaveAttribute('aria-selected', 'true');
  const item = owner.getByRole('article', { name: `Flagged paste by ${spammer.account.username}` });
  await expect(item).toBeVisible();
  await expect(item.getByText(title)).toBeVisible();
  await expect(item.getByRole('heading', { name: 'BUY NOW' })).toBeVisible();
  const flags = item.getByRole('region', { name: 'Flags' });
  await expect(flags.getByRole('listitem')).toHaveCount(3);
  for (const flagger of flaggers) await expect(flags).toContainText(flagger.account.username);
  await expect(flags).toContainText('FLAGS · score 3');
  await item.scrollIntoViewIfNeeded();
  await owner.screenshot({ path: screenshotPath('review-queue-1280'), fullPage: true });
  await owner.setViewportSize({ width: 390, height: 844 });
  await owner.screenshot({ path: screenshotPath('review-queue-390'), fullPage: true });
  await owner.setViewportSize({ width: 1280, height: 900 });

  // AGREE from the keyboard: keep it hidden, suspend the author for a day with a reason.
  await item.click({ position: { x: 8, y: 8 } });
  await owner.keyboard.press('a');
  const dialog = owner.getByRole('dialog', { name: 'AGREE' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: 'Suspend (cannot sign in)' }).check();
  await dialog.getByRole('combobox', { name: 'Duration' }).selectOption({ label: '1 day' });
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('Spam: pill adverts');
  await owner.screenshot({ path: screenshotPath('review-agree-1280') });
  await dialog.getByRole('button', { name: 'AGREE' }).click();
  await expectToast(owner, 'Flags agreed with');
  await expect(item).toHaveCount(0);

  // The author is suspended for a day, with the reason, and mailed both.
  const users = await owner.request.get(`/api/admin/users?q=${spammer.account.username}`);
  const row = ((await users.json()) as { users: Array<Record<string, unknown>> }).users[0]!;
  expect(row.isBanned).toBe(true);
  expect(row.banReason).toBe('Spam: pill adverts');
  const until = Date.parse(String(row.bannedUntil));
  expect(until - Date.now()).toBeGreaterThan(23 * 3_600_000);
  expect(until - Date.now()).toBeLessThan(25 * 3_600_000);
  expect(await readOutboxMail(spammer.account.email)).toContain('Spam: pill adverts');

  // The decision is in the audit log.
  await owner.goto('/admin?tab=audit');
  await expect(owner.getByRole('table', { name: 'Audit log' })).toContainText('Agreed with flags');

  // Each flagger is told; one reads it on their notifications page.
  for (const flagger of flaggers) {
    await expect
      .poll(async () => {
        const list = (await (await flagger.page.request.get('/api/notifications')).json()) as {
          notifications: Array<{ type: string }>;
        };
        return list.notifications.filter((n) => n.type === 'moderation').length;
      })
      .toBe(1);
  }
  await flaggers[0]!.page.goto('/notifications');
  const notice = flaggers[0]!.page.getByTestId('notification').first();
  await expect(notice.getByRole('img', { name: 'Moderation' })).toBeVisible();
  await flaggers[0]!.page.screenshot({ path: screenshotPath('review-notification-1280') });

  // The queue is empty of it: the empty state (this run's other items may be there).
  await owner.goto('/admin/review?type=member');
  await expect(owner.getByText('Nothing open matches these filters.')).toBeVisible();
});

test('the flag dialog and the queue at phone width', async ({ browser }) => {
  test.setTimeout(120_000);
  const author = await memberPage(browser, 'author');
  const created = await author.page.request.post('/api/threads', {
    data: { title: `phone check ${author.account.username}`, content: '```\nls -la\n```\n' },
    headers: { Origin: baseURL() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;
  const reader = await memberPage(browser, 'phone', 390);
  await reader.page.goto(`/thread/${id}`);
  await reader.page.getByRole('button', { name: /^FLAG paste/ }).click();
  const dialog = reader.page.getByRole('dialog', { name: 'Flag for the staff' });
  await dialog.getByRole('radio', { name: 'Something else' }).check();
  await dialog.getByRole('button', { name: 'SEND' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Say what is wrong (a note is required for "something else")',
  );
  await dialog.getByRole('textbox', { name: 'Note' }).fill('Not a paste, an advert');
  await reader.page.screenshot({ path: screenshotPath('review-flag-dialog-390') });
  await dialog.getByRole('button', { name: 'SEND' }).click();
  await expectToast(reader.page, 'Flag sent. The staff will review it.');
  // Flagging it again is refused by the server: the button reads FLAGGED meanwhile.
  await expect(reader.page.getByRole('button', { name: /^FLAGGED paste/ })).toBeDisabled();
});

test('a reader flags an unlisted paste from its link; the queue shows it', async ({ browser }) => {
  test.setTimeout(120_000);
  const author = await memberPage(browser, 'unlisted');
  const title = `unlisted advert ${author.account.username}`;
  const created = await author.page.request.post('/api/threads', {
    data: { title, content: 'Visit pills.example\n', visibility: 'unlisted' },
    headers: { Origin: baseURL() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const key = ((await created.json()) as { id: string }).id;
  expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
  const reader = await memberPage(browser, 'linkreader');
  await flagPaste(reader.page, key, title);
  // Read again from the server: still FLAGGED.
  await reader.page.reload();
  await expect(
    reader.page
      .getByRole('region', { name: 'PASTE' })
      .getByRole('button', { name: `FLAGGED paste ${title}` }),
  ).toBeDisabled();
  const staff = await (await browser.newContext()).newPage();
  await signInAsOwner(staff);
  await staff.goto('/admin/review?type=paste');
  await expect(staff.getByText(title).first()).toBeVisible();
});
