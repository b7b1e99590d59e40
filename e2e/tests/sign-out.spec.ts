import type { Page } from '@playwright/test';
import { expect, test } from './test.js';
import { screenshotPath, signUp } from './support.js';

/** Whether the page's browser context is still signed in (its cookie still opens a session). */
async function signedIn(page: Page): Promise<boolean> {
  return (await page.request.get('/api/auth/user')).status() === 200;
}

test("the top bar's Logout signs out: a top-level navigation from our own site", async ({ page }) => {
  await signUp(page);
  await page.goto('/');
  await expect(page.getByText('STATUS:')).toContainText('ONLINE');

  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();

  await expect(page.getByRole('link', { name: /access terminal/i })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  expect(await signedIn(page)).toBe(false);
});

test('an image, a fetch or a frame of /api/logout signs nobody out; typing the address does', async ({
  page,
}) => {
  await signUp(page);
  await page.goto('/');
  await expect(page.getByText('STATUS:')).toContainText('ONLINE');

  // What `![](/api/logout)` would have made, had the Markdown renderer let it through: Chromium asks
  // with Sec-Fetch-Dest: image. And a script's fetch (Sec-Fetch-Dest: empty).
  const answered = await page.evaluate(async () => {
    const image = new Image();
    const loaded = new Promise((resolve) => {
      image.onload = image.onerror = () => resolve(true);
    });
    image.src = '/api/logout';
    await loaded;
    const fetched = await fetch('/api/logout', { credentials: 'include', redirect: 'manual' });
    return fetched.type;
  });
  expect(answered).toBe('opaqueredirect');
  expect(await signedIn(page)).toBe(true);
  await page.reload();
  await expect(page.getByText('STATUS:')).toContainText('ONLINE');

  // The Markdown preview of a new paste: our own address other than an upload stays text.
  await page.goto('/thread/new');
  await page
    .getByLabel('Content')
    .fill('bye ![sign out](/api/logout) and ![up](/api/uploads/x/../../logout)');
  await page.getByRole('button', { name: 'SHOW PREVIEW' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByText('[image: sign out]')).toBeVisible();
  await expect(preview.getByText('[image: up]')).toBeVisible();
  await expect(preview.locator('img')).toHaveCount(0);
  await page.screenshot({ path: screenshotPath('markdown-own-image-refused'), fullPage: true });
  expect(await signedIn(page)).toBe(true);

  // Typed in the address bar (Sec-Fetch-Site: none): a sign-out as the spec's navigation is.
  await page.goto('/api/logout');
  await expect(page.getByRole('link', { name: /access terminal/i })).toBeVisible();
  expect(await signedIn(page)).toBe(false);
});
