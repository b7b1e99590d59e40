import type { Page } from '@playwright/test';
import { expect, test } from './test.js';
import { SSO_ERROR_MESSAGES, SSO_MESSAGES, SSO_SCREEN_TEXTS } from '@termpaste/contracts';
import { randomBytes } from 'node:crypto';
import { baseURL, newAccount, screenshotPath, signUp } from './support.js';

/*
 * Single sign-on in the browser against real providers, started by e2e/support/sso-start.mjs: "Test IdP"
 * (accounts ada, verified, and grace@oidc.example) and the GitHub stand-in (octocat@github.example).
 */
const TEST_IDP = 'Test IdP';
const ADA = { login: 'ada', password: 'ada-password' };
const GRACE = { login: 'grace', password: 'grace-password', email: 'grace@oidc.example' };
const OCTOCAT = { login: 'octocat', email: 'octocat@github.example' };

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 390, height: 844 };

test.use({ viewport: WIDE });

/** The page at 1280 and at 390 wide: e2e/output/screenshots/<name>-1280.png and <name>-390.png. */
async function screenshotBoth(page: Page, name: string) {
  await page.screenshot({ path: screenshotPath(`${name}-1280`), fullPage: true });
  await page.setViewportSize(NARROW);
  await page.screenshot({ path: screenshotPath(`${name}-390`), fullPage: true });
  await page.setViewportSize(WIDE);
}

const providerButtons = (page: Page) => page.getByRole('list', { name: 'Sign-in providers' });

/** On the test provider's own sign-in page: its form, filled and sent (it grants consent by itself). */
async function signInAtProvider(page: Page, account: { login: string; password: string }) {
  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
  await page.getByLabel('Login').fill(account.login);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** On the GitHub stand-in's authorize page: authorize as `login`. */
async function authorizeAtGithub(page: Page, login: string) {
  await expect(page.getByRole('heading', { name: 'Authorize Termpaste' })).toBeVisible();
  await page.getByRole('link', { name: `Authorize as ${login}` }).click();
}

async function currentUser(page: Page): Promise<{ id: number; username: string }> {
  const me = await page.request.get('/api/auth/user');
  expect(me.status(), await me.text()).toBe(200);
  return (await me.json()) as { id: number; username: string };
}

test('a new member signs in through the provider, picks a username, posts, links GitHub and signs in with it', async ({
  page,
}) => {
  // Four provider round trips on a loaded machine.
  test.setTimeout(180_000);
  const username = `ada_${randomBytes(3).toString('hex')}`;

  // (1) /login: the password form, then one button per provider (GitHub last).
  await page.goto('/login');
  await expect(page.getByLabel('Username or email')).toBeVisible();
  const buttons = providerButtons(page).getByRole('link');
  await expect(buttons).toHaveCount(2);
  await expect(buttons.nth(0)).toHaveAccessibleName(SSO_MESSAGES.continueWith(TEST_IDP));
  await expect(buttons.nth(1)).toHaveAccessibleName(SSO_MESSAGES.continueWith('GitHub'));
  await screenshotBoth(page, 'sso-login');

  // The provider's own sign-in page, on its own origin.
  await providerButtons(page)
    .getByRole('link', { name: SSO_MESSAGES.continueWith(TEST_IDP) })
    .click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\/[^/]+$/);
  expect(new URL(page.url()).origin).not.toBe(baseURL());
  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
  await screenshotBoth(page, 'sso-provider');
  await signInAtProvider(page, ADA);

  // Back on the site, account made: /welcome proposes the provider's preferred username.
  await expect(page).toHaveURL(/\/welcome$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: SSO_SCREEN_TEXTS.welcomeTitle })).toBeVisible();
  const form = page.getByRole('form', { name: 'Choose your username' });
  const field = form.getByLabel('Username');
  await expect(field).toHaveValue(/^ada/);
  await screenshotBoth(page, 'sso-welcome');
  await field.fill(username);
  await form.getByRole('button', { name: 'CONTINUE' }).click();

  // Home, signed in under the chosen name.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('STATUS:')).toContainText('ONLINE');
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText(username);
  const member = await currentUser(page);
  expect(member.username).toBe(username);

  // (2) A paste, listed on home with the new username.
  const title = `sso first paste ${Date.now()}`;
  await page.goto('/thread/new');
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Content').fill('echo "signed in with a provider"');
  await page.getByRole('button', { name: 'ADD PASTE' }).click();
  await expect(page).toHaveURL(/\/thread\/\d+$/);
  await page.goto('/');
  const row = page.getByRole('table', { name: 'Recent pastes' }).getByRole('row').filter({ hasText: title });
  await expect(row).toBeVisible();
  await expect(row.getByRole('link', { name: username })).toBeVisible();

  // (3) /settings/accounts: Test IdP is linked; LINK GitHub through the stand-in's page.
  await page.goto('/settings/accounts');
  const linked = page.getByRole('list', { name: 'Linked accounts' });
  await expect(linked.getByRole('listitem', { name: TEST_IDP })).toBeVisible();
  await expect(linked.getByRole('listitem', { name: 'GitHub' })).toHaveCount(0);
  await page.getByRole('link', { name: /LINK\s*GitHub/ }).click();
  await authorizeAtGithub(page, OCTOCAT.login);
  await expect(page).toHaveURL(/\/settings\/accounts\?linked=github$/, { timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: SSO_MESSAGES.linked('GitHub') })).toBeVisible();
  const github = linked.getByRole('listitem', { name: 'GitHub' });
  await expect(github).toContainText(OCTOCAT.email);
  await expect(linked.getByRole('listitem')).toHaveCount(2);
  // Every configured provider is linked now: nothing left to link.
  await expect(page.getByRole('region', { name: 'Link a provider' })).toHaveCount(0);
  await screenshotBoth(page, 'sso-settings-accounts');

  // (4) Sign out, then in again with GitHub: the same member.
  await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('link', { name: /access terminal/i })).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  await page.goto('/login');
  await providerButtons(page)
    .getByRole('link', { name: SSO_MESSAGES.continueWith('GitHub') })
    .click();
  await authorizeAtGithub(page, OCTOCAT.login);
  await expect(page).toHaveURL(/\/$/, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText(username);
  expect(await currentUser(page)).toMatchObject({ id: member.id, username });
});

test("a provider account with a password member's e-mail is refused (email_taken) and makes no account", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The member who registered with a password, with the provider account's e-mail, in a context of their own.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signUp(memberPage, { ...newAccount('grace'), email: GRACE.email });

  await page.goto('/login');
  await providerButtons(page)
    .getByRole('link', { name: SSO_MESSAGES.continueWith(TEST_IDP) })
    .click();
  await signInAtProvider(page, GRACE);

  // Back on /login with the message above the form, and not signed in.
  await expect(page).toHaveURL(/\/login\?sso_error=email_taken$/, { timeout: 30_000 });
  await expect(page.getByRole('alert').filter({ hasText: SSO_ERROR_MESSAGES.email_taken })).toBeVisible();
  await expect(page.getByLabel('Username or email')).toBeVisible();
  await page.screenshot({ path: screenshotPath('sso-login-email-taken'), fullPage: true });
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);

  // No account was made (grace's proposed username would be grace_hopper), nothing was linked to the member.
  const users = await memberPage.request.get('/api/users?q=grace_hopper');
  expect(users.status(), await users.text()).toBe(200);
  expect(((await users.json()) as { users: unknown[] }).users).toEqual([]);
  const identities = await memberPage.request.get('/api/user/identities');
  expect(identities.status(), await identities.text()).toBe(200);
  expect(((await identities.json()) as { identities: unknown[] }).identities).toEqual([]);
  await memberContext.close();
});
