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
