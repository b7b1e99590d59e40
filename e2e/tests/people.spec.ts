import type { Browser, Page } from '@playwright/test';
import { expect, test } from './test.js';
import { baseURL, expectToast, newAccount, screenshotPath, signUp } from './support.js';

/** A member in a browser context of their own (their own cookies). */
async function memberPage(browser: Browser, prefix: string, width = 1280) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const account = await signUp(page, newAccount(prefix));
  const me = await page.request.get('/api/auth/user');
  const { id } = (await me.json()) as { id: number };
  return { page, account, id };
}

async function post(page: Page, path: string, data: object): Promise<{ id: number }> {
  const response = await page.request.post(path, { data, headers: { Origin: baseURL() } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number };
}

const MUTED = 'Post by a member you muted';
const BLOCKED = 'Post by a member you blocked';

test("a muted member's reply, paste and chat line are collapsed with show; blocked, left out", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const alice = await memberPage(browser, 'alice');
  const bob = await memberPage(browser, 'bob');
  const paste = await post(alice.page, '/api/threads', { title: 'Alice asks', content: 'Any ideas?' });
  const replyText = `Bob says try nmap ${Date.now()}`;
  await post(bob.page, `/api/threads/${paste.id}/replies`, { content: replyText, parentId: null });
  const chatText = `bob in the chat ${Date.now()}`;
  await post(bob.page, '/api/chat', { message: chatText });
  const bobsPaste = await post(bob.page, '/api/threads', { title: `Bob's own ${Date.now()}`, content: 'x' });

  // Alice mutes Bob from his profile.
  await alice.page.goto(`/profile/${bob.id}`);
  await alice.page.getByRole('button', { name: 'MUTE', exact: true }).click();
  await expectToast(alice.page, `${bob.account.username} muted`);
  await expect(alice.page.getByRole('button', { name: 'UNMUTE' })).toBeVisible();
  // His pastes on his profile collapse too.
  await expect(alice.page.getByRole('link', { name: /Bob's own/ })).toHaveCount(0);
  await alice.page.screenshot({ path: screenshotPath('people-profile-muted') });

  // His reply on her paste is one line with show.
  await alice.page.goto(`/thread/${paste.id}`);
  const replies = alice.page.getByRole('region', { name: '1 REPLY' });
  await expect(replies.getByText(MUTED)).toBeVisible();
  await expect(replies.getByText(replyText)).toHaveCount(0);
  await alice.page.screenshot({ path: screenshotPath('people-thread-muted-1280') });
  await alice.page.setViewportSize({ width: 390, height: 844 });
  await alice.page.screenshot({ path: screenshotPath('people-thread-muted-390') });
  await alice.page.setViewportSize({ width: 1280, height: 900 });
  await replies.getByRole('button', { name: '[show]' }).click();
  await expect(replies.getByText(replyText)).toBeVisible();

  // His chat line too, on the chat page.
  await alice.page.goto('/chat');
  const log = alice.page.getByRole('log', { name: 'Chat messages' });
  await expect(log.getByText(MUTED).first()).toBeVisible();
  await expect(log.getByText(chatText)).toHaveCount(0);

  // His paste's own page.
  await alice.page.goto(`/thread/${bobsPaste.id}`);
  await expect(alice.page.getByText(MUTED)).toBeVisible();

  // Blocked: the reply is a line with no show.
  await alice.page.goto(`/profile/${bob.id}`);
  await alice.page.getByRole('button', { name: 'BLOCK', exact: true }).click();
  const dialog = alice.page.getByRole('alertdialog', { name: `Block ${bob.account.username}?` });
  await dialog.getByRole('button', { name: 'BLOCK' }).click();
  await expectToast(alice.page, `${bob.account.username} blocked`);
  await expect(alice.page.getByText('1 paste by a member you blocked not shown')).toBeVisible();
  await alice.page.goto(`/thread/${paste.id}`);
  await expect(replies.getByText(BLOCKED)).toBeVisible();
  await expect(replies.getByRole('button', { name: '[show]' })).toHaveCount(0);
  await expect(replies.getByText(replyText)).toHaveCount(0);

  // Settings lists both, each with its undo.
  await alice.page.goto('/settings/people');
  const muted = alice.page.getByRole('region', { name: 'MUTED' });
  const blocked = alice.page.getByRole('region', { name: 'BLOCKED' });
  await expect(muted.getByRole('link', { name: bob.account.username })).toBeVisible();
  await expect(blocked.getByRole('link', { name: bob.account.username })).toBeVisible();
  await alice.page.screenshot({ path: screenshotPath('people-settings-1280'), fullPage: true });
  await alice.page.setViewportSize({ width: 390, height: 844 });
  await alice.page.screenshot({ path: screenshotPath('people-settings-390'), fullPage: true });
  await alice.page.setViewportSize({ width: 1280, height: 900 });
  await blocked.getByRole('button', { name: `UNBLOCK ${bob.account.username}` }).click();
  await expectToast(alice.page, `${bob.account.username} unblocked`);
  await expect(blocked.getByText('You have not blocked anyone.')).toBeVisible();
  await expect(muted.getByRole('link', { name: bob.account.username })).toBeVisible();
});

test("a blocked member's private message is refused", async ({ browser }) => {
  test.setTimeout(90_000);
  const alice = await memberPage(browser, 'alice');
  const bob = await memberPage(browser, 'bob');
  const blocked = await alice.page.request.put(`/api/user/blocks/${bob.id}`, {
    headers: { Origin: baseURL() },
  });
  expect(blocked.status(), await blocked.text()).toBe(200);

  await bob.page.goto('/messages');
  await bob.page.getByRole('button', { name: 'COMPOSE' }).click();
  const form = bob.page.getByRole('form', { name: 'Compose message' });
  await form.getByRole('textbox', { name: 'To' }).fill(alice.account.username);
  await form.getByRole('textbox', { name: 'Subject' }).fill('Hello?');
  await form.getByRole('textbox', { name: 'Message' }).fill('Can we talk?');
  await form.getByRole('button', { name: 'SEND' }).click();
  await expectToast(bob.page, 'Error', 'This member does not accept messages from you');
  await bob.page.screenshot({ path: screenshotPath('people-message-refused') });

  // Alice's inbox holds nothing from him.
  const inbox = await alice.page.request.get('/api/messages');
  expect(((await inbox.json()) as { messages: unknown[] }).messages).toEqual([]);
});
