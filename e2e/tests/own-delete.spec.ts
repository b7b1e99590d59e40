import type { Browser, Page } from '@playwright/test';
import { expect, test } from './test.js';
import {
  baseURL,
  expectToast,
  newAccount,
  nextToast,
  screenshotPath,
  signInAsOwner,
  signUp,
} from './support.js';

/** A page in a browser context of its own: each account has its own cookies and sockets. */
async function memberPage(browser: Browser, prefix: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const account = await signUp(page, newAccount(prefix));
  return { page, account };
}

async function post<T>(page: Page, path: string, data: unknown): Promise<T> {
  const response = await page.request.post(path, { data, headers: { Origin: baseURL() } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as T;
}

async function confirmDialog(page: Page, title: string, button: string) {
  const dialog = page.getByRole('alertdialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

test('a member deletes a reply and a paste; the owner restores the paste from the trash', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const author = await memberPage(browser, 'author');
  const other = await memberPage(browser, 'other');
  const title = `Doomed paste ${Date.now().toString(36)}`;
  const paste = await post<{ id: number }>(author.page, '/api/threads', {
    title,
    content: 'echo "soon gone"',
  });
  const mine = await post<{ id: number }>(author.page, `/api/threads/${paste.id}/replies`, {
    content: 'a reply I regret',
  });
  await post(other.page, `/api/threads/${paste.id}/replies`, {
    content: 'an answer that stays',
    parentId: mine.id,
  });

  // The author deletes their reply: it stays as a placeholder over the answer under it.
  const { page } = author;
  await page.goto(`/thread/${paste.id}`);
  const myReply = page.getByRole('listitem', { name: `Reply by ${author.account.username}` });
  await expect(myReply).toContainText('a reply I regret');
  await expect(
    page.getByRole('listitem', { name: `Reply by ${other.account.username}` }).getByRole('button', {
      name: 'DELETE',
    }),
  ).toHaveCount(0);
  await myReply.getByRole('button', { name: 'DELETE' }).click();
  await confirmDialog(page, 'Delete this reply?', 'DELETE');
  await expectToast(page, 'Reply deleted');
  const placeholder = page.getByRole('listitem', { name: 'Deleted reply' });
  await expect(placeholder).toHaveText('[deleted by its author]');
  await expect(page.getByRole('listitem', { name: `Reply by ${other.account.username}` })).toContainText(
    'an answer that stays',
  );
  await expect(page.getByRole('region', { name: '1 REPLY' })).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: screenshotPath(`own-delete-reply-placeholder-${width}`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Another member's view of the paste offers no DELETE in its header.
  await other.page.goto(`/thread/${paste.id}`);
  await expect(other.page.getByRole('heading', { name: title })).toBeVisible();
  await expect(
    other.page.getByRole('region', { name: 'PASTE' }).getByRole('button', { name: 'DELETE' }),
  ).toHaveCount(0);

  // The author deletes the paste: confirm, toast, home after half a second, gone from the lists.
  const pasteCard = page.getByRole('region', { name: 'PASTE' });
  await pasteCard.getByRole('button', { name: 'DELETE' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete this paste?' });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: screenshotPath('own-delete-paste-confirm-1280') });
  await dialog.getByRole('button', { name: 'CANCEL' }).click();
  await expect(dialog).toBeHidden();
  await pasteCard.getByRole('button', { name: 'DELETE' }).click();
  const toast = await nextToast(page);
  await confirmDialog(page, 'Delete this paste?', 'DELETE');
  expect((await toast()).title).toBe('Paste deleted');
  await expect(page).toHaveURL(`${baseURL()}/`);
  await expect(page.getByRole('link', { name: title })).toHaveCount(0);
  expect((await page.request.get(`/api/threads/${paste.id}`)).status()).toBe(404);

  // The owner finds it in the trash and restores it.
  const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const owner = await ownerContext.newPage();
  await signInAsOwner(owner);
  await owner.goto('/admin?tab=trash');
  const trash = owner.getByRole('table', { name: 'Trash' });
  const row = trash.getByTestId(`trash-paste-${paste.id}`);
  await expect(row).toContainText(title);
  await expect(row).toContainText(author.account.username);
  await expect(row).toContainText('its author');
  await expect(trash.getByTestId(`trash-reply-${mine.id}`)).toHaveCount(0);
  for (const width of [1280, 390]) {
    await owner.setViewportSize({ width, height: 900 });
    await owner.screenshot({ path: screenshotPath(`own-delete-trash-${width}`), fullPage: true });
  }
  await owner.setViewportSize({ width: 1280, height: 900 });
  await row.getByRole('button', { name: /RESTORE/ }).click();
  await confirmDialog(owner, 'Restore this paste?', 'RESTORE');
  await expectToast(owner, 'Paste restored');
  await expect(trash.getByTestId(`trash-paste-${paste.id}`)).toHaveCount(0);
  // Its reply, deleted while the paste was, is in the trash again now that the paste is back.
  await expect(trash.getByTestId(`trash-reply-${mine.id}`)).toBeVisible();

  await page.goto(`/thread/${paste.id}`);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Deleted reply' })).toBeVisible();
});
