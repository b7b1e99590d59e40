import { expect, test } from './test.js';
import { SSO_MESSAGES } from '@termpaste/contracts';
import { baseURL, screenshotPath, signInAsOwner } from './support.js';

/*
 * A member banned for a time signs in with the test OpenID Connect provider (e2e/support/sso-start.mjs):
 * the sign-in page says until when and why, as the password sign-in does. The provider's account is
 * linus (no other e2e test uses it).
 */
const LINUS = { login: 'linus', password: 'linus-password' };

test('a banned member who signs in with a provider is told until when and why', async ({ browser }) => {
  test.setTimeout(120_000);
  let context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  let page = await context.newPage();

  async function throughProvider() {
    await page.goto('/login');
    await page
      .getByRole('list', { name: 'Sign-in providers' })
      .getByRole('link', { name: SSO_MESSAGES.continueWith('Test IdP') })
      .click();
    await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
    await page.getByLabel('Login').fill(LINUS.login);
    await page.getByLabel('Password').fill(LINUS.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  // The first sign-in makes the account.
  await throughProvider();
  await expect(page).toHaveURL(/\/welcome$/, { timeout: 30_000 });
  const me = (await (await page.request.get('/api/auth/user')).json()) as { id: number };

  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signInAsOwner(owner);
  const banned = await owner.request.post(`/api/admin/users/${me.id}/ban`, {
    data: { days: 1, reason: 'Spam in every reply' },
    headers: { Origin: baseURL() },
  });
  expect(banned.status(), await banned.text()).toBe(200);

  // Signed out by the ban; in a new browser (the provider would remember the first sign-in), the
  // provider's sign-in comes back refused, with the end and the reason.
  await context.close();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  await throughProvider();
  await expect(page).toHaveURL(/\/login\?sso_error=banned$/, { timeout: 30_000 });
  const alert = page.getByRole('alert').filter({ hasText: 'Your account is suspended' });
  await expect(alert).toHaveText(
    /Your account is suspended until \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Reason: Spam in every reply$/,
  );
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  await page.screenshot({ path: screenshotPath('sso-login-banned-1280'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath('sso-login-banned-390'), fullPage: true });

  // A hand-made link shows the plain words only: nothing from the address reaches the page.
  const other = await browser.newPage();
  await other.goto('/login?sso_error=banned&reason=Call%20us');
  await expect(other.getByRole('alert')).toHaveText(/Your account has been banned$/);
  await expect(other.getByText('Call us')).toHaveCount(0);
  await other.close();
  await context.close();
  await ownerContext.close();
});
