import { expect, test } from './test.js';
import { screenshotPath } from './support.js';

const TAGLINE = 'Share your pastes with the underground.';

test('the landing page types its tagline and leads to /login', async ({ page }) => {
  await page.goto('/');
  const tagline = page.getByTestId('tagline');
  // Typing at 100 ms a character: part of it first, then all of it.
  await expect(tagline).not.toHaveText(TAGLINE, { timeout: 1000 });
  await expect(tagline).toHaveText(TAGLINE, { timeout: 10_000 });
  await expect(page.locator('.shell-landing__cursor')).toBeVisible();
  await page.screenshot({ path: screenshotPath('landing'), fullPage: true });

  const buttons = page.locator('main').getByRole('link');
  await expect(buttons).toHaveCount(1);
  await buttons.first().click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a visitor gets the 404 page on any other path', async ({ page }) => {
  await page.goto('/thread/1');
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await page.screenshot({ path: screenshotPath('not-found'), fullPage: true });
  // The visitor's top bar: its access button goes through /api/login to the login page.
  await page.getByRole('button', { name: 'ACCESS' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('Username or email')).toBeVisible();
});

test('the login route shows its form and links', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByLabel('Username or email')).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(page.getByRole('button', { name: 'LOGIN' })).toBeVisible();
  await expect(page.getByRole('link', { name: /forgot password/i })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
  await expect(page.getByRole('link', { name: /register/i })).toHaveAttribute('href', '/register');
  await page.screenshot({ path: screenshotPath('login'), fullPage: true });
});

test('the API answers health and never serves the shell under /api', async ({ request }) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok', db: 'up' });
  const missing = await request.get('/api/nope');
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toMatchObject({ statusCode: 404 });
});

test('the landing page fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/');
  await expect(page.getByRole('link', { name: /access terminal/i })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: screenshotPath('landing-mobile'), fullPage: true });
});
