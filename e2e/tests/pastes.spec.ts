import type { Browser, Page } from '@playwright/test';
import { expect, test } from './test.js';
import { baseURL, expectToast, newAccount, screenshotPath, signInAsOwner, signUp } from './support.js';

/** A page in a browser context of its own: each member has their own cookies. */
async function memberPage(browser: Browser, prefix: string) {
  const context = await browser.newContext();
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

async function moderate(page: Page, action: string, toastTitle: string) {
  await page
    .getByRole('group', { name: 'Moderation' })
    .getByRole('button', { name: action, exact: true })
    .click();
  await confirmDialog(page, action);
  await expectToast(page, toastTitle);
}

test('two members and an admin use a paste end to end', async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await memberPage(browser, 'alice');
  const bob = await memberPage(browser, 'bob');
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAsOwner(admin);

  // Alice adds a paste with a fenced code block, a script tag and a javascript: link.
  const word = `zebrafish${Date.now()}`;
  const title = `Port scan notes ${word}`;
  const content = [
    'Scan every port of a host:',
    '',
    '```sh',
    'nmap -sV -p- 10.0.0.1 # all ports',
    '```',
    '',
    '<script>window.__pwned = "script"</script>',
    '',
    '[click me](javascript:window.__pwned="link") and [docs](https://nmap.org/book/)',
  ].join('\n');
  await alice.page.goto('/thread/new');
  await alice.page.getByLabel('Title').fill(title);
  await expect(alice.page.getByTestId('title-counter')).toHaveText(`${title.length}/200`);
  await alice.page.getByRole('button', { name: 'SHOW PREVIEW' }).click();
  await expect(alice.page.getByText('Preview will appear here...')).toBeVisible();
  await alice.page.getByLabel('Content').fill(content);
  await expect(alice.page.getByRole('region', { name: 'Preview' }).locator('code.hljs')).toContainText(
    'nmap -sV',
  );
  await alice.page.getByRole('button', { name: 'ADD PASTE' }).click();
  await expect(alice.page).toHaveURL(/\/thread\/\d+$/);
  await expectToast(alice.page, 'Paste created');
  const threadPath = new URL(alice.page.url()).pathname;
  const id = Number(threadPath.split('/').pop());

  // The paste: highlighted code with a copy button, the script shown as text, the link dead.
  const paste = alice.page.getByRole('region', { name: 'PASTE' });
  await expect(paste.getByRole('heading', { name: title })).toBeVisible();
  await expect(paste.locator('pre code.hljs .hljs-comment')).toHaveText('# all ports');
  await expect(paste.getByRole('button', { name: 'Copy code' })).toBeVisible();
  await expect(paste.getByText('<script>window.__pwned = "script"</script>')).toBeVisible();
  await expect(paste.getByRole('link', { name: 'click me' })).toHaveCount(0);
  await paste.getByText('click me').click();
  await expect(paste.getByRole('link', { name: 'docs' })).toHaveAttribute('href', 'https://nmap.org/book/');
  expect(await alice.page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
  await expect(paste.getByRole('link', { name: 'RAW' })).toHaveAttribute('href', `/api/threads/${id}/raw`);
  const raw = await alice.page.request.get(`/api/threads/${id}/raw`);
  expect(await raw.text()).toBe(content);

  // It is on home; its row opens it.
  await alice.page.goto('/');
  const row = alice.page
    .getByRole('table', { name: 'Recent pastes' })
    .getByRole('row')
    .filter({ hasText: title });
  await expect(row).toBeVisible();
  await row.getByRole('link', { name: title }).click();
  await expect(alice.page).toHaveURL(new RegExp(`${threadPath}$`));

  // Bob replies and votes the paste up.
  await bob.page.goto(threadPath);
  await bob.page.getByRole('button', { name: 'Upvote paste' }).click();
  await expect(bob.page.getByRole('group', { name: 'Vote on this paste' }).getByTestId('score')).toHaveText(
    '+1',
  );
  await expect(bob.page.getByRole('button', { name: 'Take back upvote' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await bob.page.getByLabel('Your reply').fill('Add `-T4` to go faster.');
  await bob.page.getByRole('button', { name: 'POST REPLY' }).click();
  await expectToast(bob.page, 'Reply posted');
  await expect(bob.page.getByLabel('Your reply')).toHaveValue('');
  const bobsReply = bob.page.getByRole('listitem', { name: `Reply by ${bob.account.username}` });
  await expect(bobsReply).toContainText('-T4');
  await expect(bob.page.getByRole('heading', { name: '1 REPLY' })).toBeVisible();

  // Alice answers Bob's reply: a nested reply.
  await alice.page.reload();
  const toBob = alice.page.getByRole('listitem', { name: `Reply by ${bob.account.username}` });
  await toBob.getByRole('button', { name: 'REPLY', exact: true }).click();
  await expect(alice.page.getByText(`Replying to ${bob.account.username}`)).toBeVisible();
  await alice.page.getByLabel('Your reply').fill('Thanks, **T4** it is.');
  await alice.page.getByRole('button', { name: 'POST REPLY' }).click();
  await expectToast(alice.page, 'Reply posted');
  await expect(alice.page.getByText(/^Replying to/)).toHaveCount(0);
  const nested = alice.page.getByRole('listitem', { name: `Reply by ${alice.account.username}` });
  await expect(nested).toHaveAttribute('data-depth', '1');
  await expect(nested.locator('strong')).toHaveText('T4');
  await expect(alice.page.getByRole('heading', { name: '2 REPLIES' })).toBeVisible();
  // Alice votes Bob's reply down, then takes it back.
  await toBob.getByRole('button', { name: 'Downvote reply' }).click();
  await expect(toBob.getByTestId('score')).toHaveText('-1');
  await toBob.getByRole('button', { name: 'Take back downvote' }).click();
  await expect(toBob.getByTestId('score')).toHaveText('0');
  await alice.page.evaluate(() => window.scrollTo(0, 0));
  await alice.page.screenshot({ path: screenshotPath('thread'), fullPage: true });

  // Found by search from the top bar.
  await alice.page.getByRole('searchbox').first().fill(word);
  await alice.page.getByRole('searchbox').first().press('Enter');
  await expect(alice.page).toHaveURL(new RegExp(`/search\\?q=${word}$`));
  await expect(alice.page.getByText('Searching for')).toBeVisible();
  await expect(alice.page.getByRole('heading', { name: '1 result' })).toBeVisible();
  await expect(alice.page.getByRole('article', { name: title })).toContainText('Last reply');

  // The profile from the author link.
  await alice.page.goto(threadPath);
  await alice.page
    .getByRole('region', { name: 'PASTE' })
    .getByRole('link', { name: alice.account.username })
    .click();
  await expect(alice.page).toHaveURL(/\/profile\/\d+$/);
  await expect(alice.page.getByRole('heading', { name: new RegExp(alice.account.username) })).toBeVisible();
  await expect(alice.page.getByRole('article', { name: title })).toBeVisible();
  await expect(alice.page.getByText(/points needed to reach/)).toBeVisible();
  await alice.page.screenshot({ path: screenshotPath('profile'), fullPage: true });

  // Members see no moderation; the admin pins and features it.
  await expect(bob.page.getByRole('group', { name: 'Moderation' })).toHaveCount(0);
  await admin.goto(threadPath);
  await moderate(admin, 'PIN', 'Thread pin status toggled');
  await expect(
    admin.getByRole('group', { name: 'Moderation' }).getByRole('button', { name: 'UNPIN' }),
  ).toBeVisible();
  await moderate(admin, 'FEATURE', 'Thread featured status toggled');
  await admin.goto('/');
  await expect(
    admin.getByRole('table', { name: 'Pinned Pastes' }).getByRole('link', { name: title }),
  ).toBeVisible();
  await expect(
    admin.getByRole('table', { name: 'Recent pastes' }).getByRole('link', { name: title }),
  ).toHaveCount(0);
  await admin.screenshot({ path: screenshotPath('home-pinned'), fullPage: true });
  await admin.goto('/hardest');
  await expect(
    admin.getByRole('table', { name: 'Featured pastes' }).getByRole('link', { name: title }),
  ).toBeVisible();
  await expect(admin.getByText(/^\d+ featured$/)).toBeVisible();

  // Locked: Bob cannot reply, in the page or through the API.
  await admin.goto(threadPath);
  await moderate(admin, 'LOCK', 'Thread lock status toggled');
  await bob.page.reload();
  await expect(bob.page.getByText('This paste is locked: new replies are closed.')).toBeVisible();
  await expect(bob.page.getByRole('button', { name: 'POST REPLY' })).toHaveCount(0);
  const refused = await bob.page.request.post(`/api/threads/${id}/replies`, {
    data: { content: 'sneaky' },
    headers: { Origin: baseURL() },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).message).toBe('Thread is locked');

  // Deleted: the admin goes home after half a second; the paste is gone for everyone.
  await admin.getByRole('group', { name: 'Moderation' }).getByRole('button', { name: 'DELETE' }).click();
  await confirmDialog(admin, 'DELETE');
  await expectToast(admin, 'Thread deleted successfully');
  await expect(admin).toHaveURL(`${baseURL()}/`);
  await bob.page.reload();
  await expect(bob.page.getByText('Thread not found [404]')).toBeVisible();

  await Promise.all([alice.page.context().close(), bob.page.context().close(), adminContext.close()]);
});

test('add paste refuses blank fields with the validation toast', async ({ page }) => {
  await signUp(page);
  await page.goto('/thread/new');
  await page.getByLabel('Title').fill('   ');
  await page.getByLabel('Content').fill('something');
  await page.getByRole('button', { name: 'ADD PASTE' }).click();
  await expectToast(page, 'Validation Error', 'Please fill in all fields');
  await expect(page).toHaveURL(/\/thread\/new$/);
});

test('the members directory lists members by reputation and filters by name', async ({ page }) => {
  const member = await signUp(page, newAccount('dirtest'));
  await page.goto('/users');
  await page.getByLabel('Filter members by name').fill(member.username.toUpperCase());
  const table = page.getByRole('table', { name: 'Members' });
  await expect(table.getByRole('link', { name: member.username })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2); // the header and the one match
  await page.screenshot({ path: screenshotPath('users'), fullPage: true });
});
