import type { Browser, Page, WebSocket as PageSocket } from '@playwright/test';
import { expect, test } from './test.js';
import { baseURL, expectToast, newAccount, screenshotPath, signUp } from './support.js';

/** A page in a browser context of its own: each member has their own cookies and sockets. */
async function memberPage(browser: Browser, prefix: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const account = await signUp(page, newAccount(prefix));
  return { page, account };
}

/** The top bar's unread badge: absent at 0, else `N unread`. */
const unreadBadge = (page: Page) =>
  page.getByRole('link', { name: 'Notifications' }).locator('.shell-topbar__badge');

async function post(page: Page, path: string, data: object): Promise<{ id: number }> {
  const response = await page.request.post(path, { data, headers: { Origin: baseURL() } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number };
}

test('two members chat live, message each other and are notified', async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await memberPage(browser, 'alice');
  const bob = await memberPage(browser, 'bob');

  // Bob watches the chat page; Alice opens the popover on home and says hello.
  await bob.page.goto('/chat');
  const bobChat = bob.page.getByRole('region', { name: 'GLOBAL CHAT' });
  await expect(bobChat.getByRole('status').filter({ hasText: 'LIVE' })).toBeVisible();

  await alice.page.goto('/');
  await alice.page.getByRole('button', { name: 'Open global chat' }).click();
  const popover = alice.page.getByRole('dialog', { name: 'GLOBAL CHAT' });
  await expect(popover).toBeVisible();
  await expect(popover.getByText('LIVE', { exact: true })).toBeVisible();
  const box = await popover.boundingBox();
  expect(Math.round(box!.width)).toBe(600);
  expect(Math.round(box!.height)).toBe(600);
  const hello = `hello from alice ${Date.now()}`;
  await popover.getByRole('textbox', { name: 'Message' }).fill(`  ${hello}  `);
  await popover.getByRole('button', { name: 'SEND' }).click();
  await expect(popover.getByRole('log').getByText(hello)).toBeVisible();
  // Bob sees it without reloading, and answers from the page: Enter sends, Shift+Enter adds a line.
  const bobLog = bob.page.getByRole('log', { name: 'Chat messages' });
  await expect(bobLog.getByText(hello)).toBeVisible();
  await expect(bobLog.getByRole('link', { name: alice.account.username })).toBeVisible();
  const bobBox = bob.page.getByRole('textbox', { name: 'Message' });
  // Names unique to this run: the room is global, and other tests (or repeats) talk in it too.
  await bobBox.fill(`hi ${alice.account.username}`);
  await bobBox.press('Shift+Enter');
  await bobBox.pressSequentially('second line');
  await bobBox.press('Enter');
  await expect(bobBox).toHaveValue('');
  await expect(
    popover.getByRole('log').getByText(new RegExp(`hi ${alice.account.username}\\s+second line`)),
  ).toBeVisible();
  await alice.page.screenshot({ path: screenshotPath('chat-popover') });
  await bob.page.screenshot({ path: screenshotPath('chat-page') });

  // Closing the popover closes its socket: nothing is fetched for it any more.
  await alice.page.keyboard.press('Escape');
  await expect(popover).toBeHidden();

  // Alice writes to Bob; Bob's badge rises on whatever page he is on, without a reload.
  await bob.page.goto('/');
  await expect(unreadBadge(bob.page)).toHaveCount(0);
  await alice.page.goto('/messages');
  await expect(alice.page.getByText('Select a message to view or compose a new one')).toBeVisible();
  await alice.page.getByRole('button', { name: 'COMPOSE' }).click();
  const form = alice.page.getByRole('form', { name: 'Compose message' });
  await form.getByRole('button', { name: 'SEND' }).click();
  await expectToast(alice.page, 'Validation Error', 'Please fill in all fields');
  await form.getByRole('textbox', { name: 'To' }).fill(bob.account.username.toUpperCase());
  await form.getByRole('textbox', { name: 'Subject' }).fill('Meet at the construct');
  await form.getByRole('textbox', { name: 'Message' }).fill('Bring the **red** pill.');
  await form.getByRole('button', { name: 'SEND' }).click();
  await expectToast(alice.page, 'Message sent');
  await expect(unreadBadge(bob.page)).toHaveText('1');

  // Bob opens it: read on open, and its notification with it.
  await bob.page.getByRole('link', { name: 'Messages' }).click();
  await expect(bob.page).toHaveURL(/\/messages$/);
  const row = bob.page
    .getByRole('tabpanel')
    .getByRole('listitem')
    .filter({ hasText: 'Meet at the construct' });
  await expect(row.getByText('NEW', { exact: true })).toBeVisible();
  await bob.page.screenshot({ path: screenshotPath('messages-inbox') });
  await row.getByRole('button').click();
  const detail = bob.page.getByRole('region', { name: 'MESSAGE' });
  await expect(detail.getByRole('heading', { name: 'Meet at the construct' })).toBeVisible();
  await expect(detail.getByRole('link', { name: new RegExp(alice.account.username) })).toBeVisible();
  await expect(detail.locator('strong')).toHaveText('red');
  await expect(row.getByText('NEW', { exact: true })).toHaveCount(0);
  await expect(unreadBadge(bob.page)).toHaveCount(0);
  await bob.page.screenshot({ path: screenshotPath('messages-detail') });

  // A reply to Bob's paste and an @mention in Alice's paste notify Bob live.
  const paste = await post(bob.page, '/api/threads', { title: 'Bob asks', content: 'Any ideas?' });
  await post(alice.page, `/api/threads/${paste.id}/replies`, { content: 'Try nmap.', parentId: null });
  const mention = await post(alice.page, '/api/threads', {
    title: 'Credits',
    content: `Thanks @${bob.account.username} for the tip (and not \`@${bob.account.username}\` in code).`,
  });
  await expect(unreadBadge(bob.page)).toHaveText('2');

  await bob.page.getByRole('link', { name: 'Notifications' }).click();
  await expect(bob.page.getByTestId('unread-count')).toHaveText('[2 unread]');
  const items = bob.page.getByTestId('notification');
  const replyItem = items.filter({ hasText: `${alice.account.username} replied to your paste "Bob asks"` });
  const mentionItem = items.filter({ hasText: `${alice.account.username} mentioned you in "Credits"` });
  await expect(replyItem.getByText('[ NEW ]')).toBeVisible();
  await expect(mentionItem.getByRole('link', { name: 'View thread' })).toHaveAttribute(
    'href',
    `/thread/${mention.id}`,
  );
  await expect(items.filter({ hasText: 'sent you a message' }).getByText('[ NEW ]')).toHaveCount(0);
  await bob.page.screenshot({ path: screenshotPath('notifications') });

  // A click reads one; MARK ALL READ the rest, and then goes away.
  await replyItem.getByText('replied to your paste').click();
  await expect(replyItem.getByText('[ NEW ]')).toHaveCount(0);
  await expect(unreadBadge(bob.page)).toHaveText('1');
  await bob.page.getByRole('button', { name: 'MARK ALL READ' }).click();
  await expectToast(bob.page, 'All notifications marked as read');
  await expect(unreadBadge(bob.page)).toHaveCount(0);
  await expect(bob.page.getByRole('button', { name: 'MARK ALL READ' })).toHaveCount(0);
  await mentionItem.getByRole('link', { name: 'View thread' }).click();
  await expect(bob.page).toHaveURL(new RegExp(`/thread/${mention.id}$`));
});

test('a new member sees the empty states', async ({ page }) => {
  await signUp(page);
  await page.goto('/notifications');
  await expect(page.getByText('No notifications yet')).toBeVisible();
  await expect(page.getByRole('button', { name: 'MARK ALL READ' })).toHaveCount(0);
  await page.goto('/messages');
  await expect(page.getByText('No messages yet')).toBeVisible();
  await page.goto('/');
  await page.getByRole('button', { name: 'Open global chat' }).click();
  await expect(page.getByRole('dialog', { name: 'GLOBAL CHAT' })).toBeVisible();
});

test('a signed-in tab holds one live socket: user-scoped, carrying the chat while the popover is open', async ({
  page,
}) => {
  await signUp(page);
  const sockets: PageSocket[] = [];
  page.on('websocket', (socket) => sockets.push(socket));
  // The sockets of a page navigated away from go with it, but Playwright reports no close for them.
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) sockets.length = 0;
  });
  // The query of each socket still open ('?scope=user', or '' for the one that carries the chat too).
  const open = () =>
    sockets.filter((socket) => !socket.isClosed()).map((socket) => new URL(socket.url()).search);

  // The shell's member events and the notifications screen share it.
  await page.goto('/notifications');
  await expect(page.getByText('No notifications yet')).toBeVisible();
  // Quiet for half a second: a second socket, had the screen opened one, would be there by now.
  await page.waitForLoadState('networkidle');
  await expect.poll(open).toEqual(['?scope=user']);

  await page.goto('/');
  await page.getByRole('button', { name: 'Open global chat' }).click();
  const popover = page.getByRole('dialog', { name: 'GLOBAL CHAT' });
  await expect(popover.getByText('LIVE', { exact: true })).toBeVisible();
  await expect.poll(open).toEqual(['']);

  await page.keyboard.press('Escape');
  await expect(popover).toHaveCount(0);
  await expect.poll(open).toEqual(['?scope=user']);
});

test('home loads the messaging remote only when the chat button is reached for (its facade)', async ({
  page,
}) => {
  await signUp(page);
  const messaging: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/remotes/messaging/')) messaging.push(pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'RECENT PASTES' })).toBeVisible();
  const button = page.getByRole('button', { name: 'Open global chat' });
  await expect(button).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(messaging).toEqual([]);

  // Pointing at it fetches the remote; the click opens the chat, its input ready to type in.
  await button.hover();
  await expect.poll(() => messaging).toContain('/remotes/messaging/remoteEntry.js');
  await button.click();
  const popover = page.getByRole('dialog', { name: 'GLOBAL CHAT' });
  await expect(popover).toBeVisible();
  await expect(popover.getByText('LIVE', { exact: true })).toBeVisible();
  await expect(popover.getByRole('textbox', { name: 'Message' })).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(popover).toHaveCount(0);
  await expect(button).toBeFocused();

  // By keyboard, on a fresh visit: the focus follows into the chat and back to the button.
  messaging.length = 0;
  await page.reload();
  await expect(button).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(messaging).toEqual([]);
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(popover.getByRole('textbox', { name: 'Message' })).toBeFocused();
  expect(messaging).toContain('/remotes/messaging/remoteEntry.js');
  await page.keyboard.press('Escape');
  await expect(popover).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
});
