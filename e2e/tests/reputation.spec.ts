import type { Browser } from '@playwright/test';
import { expect, test } from './test.js';
import { baseURL, newAccount, screenshotPath, signUp } from './support.js';

/** A page in a browser context of its own: each member has their own cookies. */
async function memberPage(browser: Browser, prefix: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = await signUp(page, newAccount(prefix));
  const me = await page.request.get('/api/auth/user');
  return { page, account, id: ((await me.json()) as { id: number }).id };
}

test('the profile shows the member their reputation ledger, and other members not', async ({ browser }) => {
  const alice = await memberPage(browser, 'ledger_alice');
  const bob = await memberPage(browser, 'ledger_bob');
  const headers = { Origin: baseURL() };

  // Alice posts a paste (+5) and chats (+1); Bob up-votes the paste (+1 to Alice).
  const title = `Ledger paste ${Date.now()}`;
  const created = await alice.page.request.post('/api/threads', {
    data: { title, content: 'body' },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: threadId } = (await created.json()) as { id: number };
  const chat = await alice.page.request.post('/api/chat/messages', { data: { content: 'hi all' }, headers });
  expect(chat.status(), await chat.text()).toBe(201);
  const vote = await bob.page.request.post('/api/votes', { data: { threadId, value: 1 }, headers });
  expect(vote.status(), await vote.text()).toBe(200);

  await alice.page.goto(`/profile/${alice.id}`);
  const card = alice.page.getByRole('region', { name: 'REPUTATION LEDGER' });
  const table = card.getByRole('table', { name: 'Reputation ledger' });
  await expect(table.getByRole('row')).toHaveCount(4);
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toContainText('vote received');
  await expect(rows.nth(1)).toContainText('+1');
  await expect(rows.nth(2)).toContainText('chat message');
  await expect(rows.nth(3)).toContainText('paste');
  await expect(rows.nth(3)).toContainText('+5');
  await expect(card).toContainText(
    'Today (UTC): pastes 5/50 · replies 0/40 · chat 1/20 · votes received 1/50',
  );
  // The Rep stat is the ledger's sum.
  const rep = alice.page.locator('.forum-stat', { has: alice.page.getByText('Rep', { exact: true }) });
  await expect(rep.locator('dd')).toHaveText('7');
  await alice.page.screenshot({ path: screenshotPath('reputation-ledger'), fullPage: true });

  // The source links to the paste.
  await rows.nth(3).getByRole('link', { name: title }).click();
  await expect(alice.page).toHaveURL(new RegExp(`/thread/${threadId}$`));

  // Bob sees Alice's profile and total, but not her ledger.
  await bob.page.goto(`/profile/${alice.id}`);
  await expect(bob.page.getByRole('heading', { name: new RegExp(alice.account.username) })).toBeVisible();
  await expect(bob.page.getByText(/points needed to reach/)).toBeVisible();
  await expect(bob.page.getByRole('region', { name: 'REPUTATION LEDGER' })).toHaveCount(0);
});
