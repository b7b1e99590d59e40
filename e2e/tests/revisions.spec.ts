import type { Page } from '@playwright/test';
import { expect, test } from './test.js';
import { baseURL, newAccount, screenshotPath, signUp } from './support.js';

/** A member edits a paste, sees "edited", opens its versions and reads the diff, in Chromium. */

const ORIGINAL = ['#!/bin/sh', 'echo "hello"', 'ls -la /tmp', 'exit 0', ''].join('\n');
const EDITED = ['#!/bin/sh', 'echo "hello, world"', 'ls -la /tmp', '<b>not bold</b>', 'exit 0', ''].join(
  '\n',
);

const diffLines = (region: ReturnType<Page['getByRole']>) =>
  region
    .locator('.cv-line')
    .evaluateAll((lines) =>
      lines.map((line) => [
        line.className.match(/rev-line--(\w+)/)?.[1],
        line.querySelector('.cv-code')?.textContent,
      ]),
    );

for (const width of [1280, 390]) {
  test(`a member edits a paste and reads the diff of its versions (${width} wide)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await signUp(page, newAccount('editor'));
    const created = await page.request.post('/api/threads', {
      data: { title: 'tmp listing', content: ORIGINAL, language: 'bash' },
      headers: { Origin: baseURL() },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: number };

    await page.goto(`/thread/${id}`);
    const paste = page.getByRole('region', { name: 'PASTE' });
    await expect(paste.getByRole('heading', { level: 1 })).toHaveText('tmp listing');
    await expect(paste.getByRole('link', { name: /^edited/ })).toHaveCount(0);
    await paste.getByRole('button', { name: 'EDIT' }).click();
    const form = page.getByRole('form', { name: 'Edit paste' });
    await expect(form.getByRole('combobox', { name: 'Language' })).toHaveValue('Bash');
    await form.getByLabel('Title').fill('tmp listing, fixed');
    await form.getByLabel('Content').fill(EDITED);
    await page.screenshot({ path: screenshotPath(`revisions-edit-form-${width}`), fullPage: true });
    await form.getByRole('button', { name: 'SAVE' }).click();

    await expect(paste.getByRole('heading', { level: 1 })).toHaveText('tmp listing, fixed');
    const edited = paste.getByRole('link', { name: /^edited/ });
    await expect(edited).toContainText('edited');
    // After a reload too: the server's page, not the browser's copy.
    await page.reload();
    await expect(
      page.getByRole('region', { name: 'PASTE' }).getByRole('link', { name: /^edited/ }),
    ).toBeVisible();
    await page.screenshot({ path: screenshotPath(`revisions-edited-mark-${width}`) });
    await page
      .getByRole('region', { name: 'PASTE' })
      .getByRole('link', { name: /^edited/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/thread/${id}/revisions$`));

    const table = page.getByRole('table', { name: 'Versions' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('row').nth(1)).toContainText('v2');
    await expect(table.getByRole('row').nth(1)).toContainText('+2 −1');
    await expect(table.getByRole('row').nth(2)).toContainText('v1 (original)');
    await expect(table.getByRole('row').nth(2)).toContainText('+4 −0');
    await page.screenshot({ path: screenshotPath(`revisions-list-${width}`), fullPage: true });

    const diff = page.getByRole('region', { name: 'Changes from version 1 to version 2' });
    await expect(diff).toContainText('Title: tmp listing → tmp listing, fixed');
    const unified = diff.getByRole('region', { name: 'Unified diff', exact: true });
    await expect
      .poll(() => diffLines(unified))
      .toEqual([
        ['same', '#!/bin/sh'],
        ['removed', 'echo "hello"'],
        ['added', 'echo "hello, world"'],
        ['same', 'ls -la /tmp'],
        ['added', '<b>not bold</b>'],
        ['same', 'exit 0'],
      ]);
    // Added green, removed red (the theme's colours), and the HTML in the paste is text.
    const background = (kind: string) =>
      unified
        .locator(`.rev-line--${kind}`)
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await background('added')).toBe('rgba(51, 255, 102, 0.1)');
    expect(await background('removed')).toBe('rgba(255, 95, 86, 0.12)');
    await expect(unified.locator('b')).toHaveCount(0);
    await diff.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`revisions-unified-${width}`), fullPage: true });

    await diff.getByRole('button', { name: 'SIDE BY SIDE' }).click();
    await expect
      .poll(() => diffLines(diff.getByRole('region', { name: 'Version 1', exact: true })))
      .toEqual([
        ['same', '#!/bin/sh'],
        ['removed', 'echo "hello"'],
        ['same', 'ls -la /tmp'],
        ['pad', ''],
        ['same', 'exit 0'],
      ]);
    await expect
      .poll(() => diffLines(diff.getByRole('region', { name: 'Version 2', exact: true })))
      .toEqual([
        ['same', '#!/bin/sh'],
        ['added', 'echo "hello, world"'],
        ['same', 'ls -la /tmp'],
        ['added', '<b>not bold</b>'],
        ['same', 'exit 0'],
      ]);
    await page.screenshot({ path: screenshotPath(`revisions-side-by-side-${width}`), fullPage: true });
  });
}

test('an edit that takes a secret out offers to purge the old version; the history then says it was removed', async ({
  page,
}) => {
  await signUp(page, newAccount('purger'));
  const key = ['AKIA', 'QYLPMN5H', 'HHFPZAM2'].join('');
  const created = await page.request.post('/api/threads', {
    data: {
      title: 'aws config',
      content: `region = eu-west-1\naws_access_key_id = ${key}\n`,
      allowSecrets: true,
    },
    headers: { Origin: baseURL() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  await page.goto(`/thread/${id}`);
  const paste = page.getByRole('region', { name: 'PASTE' });
  await paste.getByRole('button', { name: 'EDIT' }).click();
  await page.getByRole('form', { name: 'Edit paste' }).getByLabel('Content').fill('region = eu-west-1\n');
  await page.getByRole('button', { name: 'SAVE' }).click();
  const offer = page.getByRole('alertdialog', { name: 'The secret is still in the history' });
  await expect(offer).toContainText('v1 still holds the secret you removed');
  await page.screenshot({ path: screenshotPath('revisions-purge-offer') });
  await offer.getByRole('button', { name: 'PURGE THE OLD VERSION', exact: true }).click();
  await expect(offer).toBeHidden();

  expect((await page.request.get(`/api/threads/${id}/revisions/1`)).status()).toBe(404);
  await page.goto(`/thread/${id}/revisions`);
  const table = page.getByRole('table', { name: 'Versions' });
  await expect(table.getByRole('row').nth(2)).toContainText('v1 (original) removed');
  await expect(page.getByRole('radio', { name: 'Compare from version 1', exact: true })).toBeDisabled();
  await expect(page.getByText(key)).toHaveCount(0);
  await page.screenshot({ path: screenshotPath('revisions-removed'), fullPage: true });
});

test('a member comments on lines 3–5 with a suggestion; the author applies it; the history credits them', async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUp(page, newAccount('author'));
  const script = ['#!/bin/sh', 'set -e', 'echo one', 'echo two', 'echo three', 'exit 0', ''].join('\n');
  const created = await page.request.post('/api/threads', {
    data: { title: 'three echoes', content: script, language: 'bash' },
    headers: { Origin: baseURL() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  // The reviewer, in a browser of their own: lines 3 to 5 by mouse, then c from the keyboard.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const reviewerPage = await context.newPage();
  const reviewer = await signUp(reviewerPage, newAccount('reviewer'));
  await reviewerPage.goto(`/thread/${id}`);
  const code = reviewerPage.getByRole('region', { name: 'Paste content', exact: true });
  await code.getByRole('link', { name: 'Line 3', exact: true }).click();
  await code.getByRole('link', { name: 'Line 5', exact: true }).click({ modifiers: ['Shift'] });
  await expect(code.getByTestId('cv-selection')).toHaveText('L3-L5');
  await reviewerPage.keyboard.press('c');
  const form = reviewerPage.getByRole('form', { name: 'Comment on lines 3–5' });
  await form.getByLabel('Your comment on lines 3–5').fill('Say it in one line');
  await form.getByRole('button', { name: 'SUGGEST A CHANGE' }).click();
  const suggestion = form.getByLabel('Suggested text for lines 3–5');
  await expect(suggestion).toHaveValue('echo one\necho two\necho three');
  await suggestion.fill('echo one two three');
  await form.getByRole('button', { name: 'POST COMMENT' }).click();

  const inline = code.getByTestId('line-comments-5');
  await expect(inline).toContainText('Say it in one line');
  await expect(inline.locator('.lc-diff__line--removed')).toHaveText(['echo one', 'echo two', 'echo three']);
  await expect(inline.locator('.lc-diff__line--added')).toHaveText(['echo one two three']);
  // Only the paste's author applies it.
  await expect(inline.getByRole('button', { name: 'APPLY' })).toHaveCount(0);
  const replies = reviewerPage.getByRole('region', { name: /1 REPLY/ });
  await expect(replies.getByRole('link', { name: 'lines 3–5' })).toHaveAttribute('href', '#L3-L5');
  await reviewerPage.screenshot({ path: screenshotPath('line-comments-reviewer-1280'), fullPage: true });
  await reviewerPage.setViewportSize({ width: 390, height: 844 });
  await reviewerPage.screenshot({ path: screenshotPath('line-comments-reviewer-390'), fullPage: true });
  await context.close();

  // The author sees the diff and APPLY: a new version, the comment marked applied.
  await page.goto(`/thread/${id}`);
  const authorsCode = page.getByRole('region', { name: 'Paste content', exact: true });
  const comment = authorsCode.getByTestId('line-comments-5');
  await comment.getByRole('button', { name: 'APPLY' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Apply this suggestion?' });
  await dialog.getByRole('button', { name: 'APPLY' }).click();
  await expect(authorsCode.locator('.cv-line[data-line="3"] .cv-code')).toHaveText('echo one two three');
  await expect(authorsCode.locator('.cv-line[data-line="4"] .cv-code')).toHaveText('exit 0');
  const replyList = page.getByRole('region', { name: /1 REPLY/ });
  await expect(replyList.getByRole('link', { name: 'applied in version 2' })).toBeVisible();
  // Its lines changed: the comment now stands 'on an older version', linked to version 1.
  await expect(replyList.getByText('on an older version')).toBeVisible();
  await page.screenshot({ path: screenshotPath('line-comments-applied-1280'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath('line-comments-applied-390'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto(`/thread/${id}/revisions`);
  const table = page.getByRole('table', { name: 'Versions' });
  await expect(table.getByRole('row').nth(1)).toContainText('v2');
  const credited = table.getByRole('row').nth(1);
  await expect(credited.locator('.rev-credit')).toContainText('suggested by');
  await expect(credited.locator('.rev-credit').getByRole('link', { name: reviewer.username })).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toContainText('+1 −3');
  await page.screenshot({ path: screenshotPath('line-comments-history-1280'), fullPage: true });
});
