import { expect, test } from './test.js';
import { newAccount, screenshotPath, signUp } from './support.js';

/**
 * A paste that burns after reading, and one that expires (EXPIRY_TIME_SCALE=60 on the e2e server: `10m`
 * lasts ten seconds), posted through the add-paste form in Chromium.
 */

const WARNING = 'This paste will be deleted after you view it';
const NOT_FOUND = 'Thread not found [404]';

for (const width of [1280, 390]) {
  test(`a second member opens a burn-after-reading paste once; after that nobody can (${width} wide)`, async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await signUp(page, newAccount('burner'));
    await page.goto('/thread/new');
    await page.getByLabel('Title').fill('One-time password');
    await page.getByLabel('Content').fill('hunter2, once');
    await page.getByLabel('Expires').selectOption('1d');
    await page.getByRole('checkbox', { name: /Burn after reading/ }).check();
    if (width === 1280)
      await page.screenshot({ path: screenshotPath(`expiry-burn-form-${width}`), fullPage: true });
    await page.getByRole('button', { name: 'ADD PASTE' }).click();
    // Named by its key, not its number.
    await expect(page).toHaveURL(/\/thread\/[A-Za-z0-9_-]{22}$/);
    const url = page.url();
    const paste = page.getByRole('region', { name: 'PASTE' });
    await expect(paste).toContainText('hunter2, once');
    await expect(paste).toContainText('burns after reading');
    await expect(paste).toContainText(/expires in (about )?\d+ minutes?|expires in less than a minute/);
    await expect(page.getByRole('region', { name: 'POST A REPLY' })).toContainText(
      'Replies are off for a paste that burns after reading',
    );
    await page.screenshot({ path: screenshotPath(`expiry-burn-author-${width}`), fullPage: true });

    const second = await browser.newContext({ viewport: { width, height: 800 } });
    const reader = await second.newPage();
    await signUp(reader, newAccount('reader'));
    await reader.goto(url);
    const gate = reader.getByRole('region', { name: 'BURN AFTER READING' });
    await expect(gate).toContainText(WARNING);
    await expect(gate).toContainText('One-time password');
    await expect(reader.getByText('hunter2, once')).toHaveCount(0);
    await reader.screenshot({ path: screenshotPath(`expiry-burn-gate-${width}`), fullPage: true });
    // Reading the page again does not burn it.
    await reader.reload();
    await expect(gate).toContainText(WARNING);

    await gate.getByRole('button', { name: 'SHOW AND DELETE' }).click();
    await expect(reader.getByRole('region', { name: 'PASTE' })).toContainText('hunter2, once');
    await expect(reader.getByText('This paste is now deleted.')).toBeVisible();
    await reader.screenshot({ path: screenshotPath(`expiry-burn-shown-${width}`), fullPage: true });

    await reader.reload();
    await expect(reader.getByText(NOT_FOUND)).toBeVisible();
    // A third reader finds nothing either (a visitor's API call: 404), nor does its author.
    const third = await browser.newContext();
    const visitor = await third.newPage();
    const key = new URL(url).pathname.split('/').at(-1)!;
    expect((await visitor.request.get(`/api/threads/${key}`)).status()).toBe(404);
    expect((await visitor.request.get(`/api/threads/${key}/raw`)).status()).toBe(404);
    await page.reload();
    await expect(page.getByText(NOT_FOUND)).toBeVisible();
    await second.close();
    await third.close();
  });
}

test('a paste that expires in 10 minutes reads not found once its time has passed', async ({
  page,
  browser,
}) => {
  await signUp(page, newAccount('expirer'));
  // A second member, to have it open in another tab.
  const other = await browser.newContext();
  const reader = await other.newPage();
  await signUp(reader, newAccount('watcher'));
  await page.goto('/thread/new');
  await page.getByLabel('Title').fill('Short-lived notes');
  await page.getByLabel('Content').fill('gone soon');
  await page.getByLabel('Expires').selectOption('10m');
  await page.getByRole('button', { name: 'ADD PASTE' }).click();
  await expect(page).toHaveURL(/\/thread\/\d+$/);
  const url = page.url();
  const paste = page.getByRole('region', { name: 'PASTE' });
  await expect(paste).toContainText('gone soon');
  const mark = paste.getByText(/^expires in/);
  await expect(mark).toBeVisible();
  await expect(paste.locator('[title^="Expires "]')).toHaveCount(1);
  // Open in a second tab too: it says so when the time comes, without a reload.
  await reader.goto(url);
  await expect(reader.getByRole('region', { name: 'PASTE' })).toContainText('gone soon');

  await expect(page.getByRole('region', { name: 'EXPIRED' })).toContainText('This paste has expired', {
    timeout: 15_000,
  });
  await expect(reader.getByRole('region', { name: 'EXPIRED' })).toBeVisible();
  await page.screenshot({ path: screenshotPath('expiry-expired-1280'), fullPage: true });
  await reader.reload();
  await expect(reader.getByText(NOT_FOUND)).toBeVisible();
  // Gone from home too.
  await reader.goto('/');
  await expect(reader.getByText('Short-lived notes')).toHaveCount(0);
  await other.close();
});
