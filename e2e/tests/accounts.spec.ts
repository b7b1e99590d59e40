import type { Page } from '@playwright/test';
import { expect, test } from './test.js';
import { expectToast, newAccount, nextToast, readOutboxMail, screenshotPath, signUp } from './support.js';

async function logout(page: Page) {
  await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('link', { name: /access terminal/i })).toBeVisible();
}

async function login(page: Page, usernameOrEmail: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(usernameOrEmail);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'LOGIN' }).click();
  await expectToast(page, 'Access Granted', 'Welcome to Termpaste');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('STATUS:')).toContainText('ONLINE');
}

test('register, log out, log in by e-mail, recover the password from the outbox, change it', async ({
  page,
}) => {
  const account = newAccount('neo');

  // Register: lands on home, signed in.
  await page.goto('/register');
  await page.screenshot({ path: screenshotPath('register'), fullPage: true });
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm password').fill(account.password);
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  await expectToast(page, 'Registration Successful');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('STATUS:')).toContainText('ONLINE');
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText(account.username);

  await logout(page);
  await login(page, account.email, account.password);
  await logout(page);

  // Forgot password: the sent state, and the mail in the outbox.
  await page.goto('/forgot-password');
  await page.screenshot({ path: screenshotPath('forgot-password'), fullPage: true });
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'SEND RESET LINK' }).click();
  await expectToast(page, 'Reset Link Sent', 'Check your email for the password reset link');
  await expect(page.getByText(/If an account exists with that email/)).toBeVisible();
  await expect(page.getByText(/expires in 1 hour/).first()).toBeVisible();
  await page.screenshot({ path: screenshotPath('forgot-password-sent'), fullPage: true });
  await expect(page.getByRole('link', { name: /reset token/i })).toHaveAttribute('href', '/reset-password');

  const mail = await readOutboxMail(account.email);
  const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(mail)?.[0];
  expect(link, mail).toBeTruthy();

  // Reset from the link: the token comes from the query, so no token field.
  await page.goto(link!);
  await expect(page.getByLabel('Reset token')).toHaveCount(0);
  await page.screenshot({ path: screenshotPath('reset-password'), fullPage: true });
  const newPassword = `${account.password}-2`;
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'RESET PASSWORD' }).click();
  await expectToast(page, 'Password Reset Successful', 'You can now login with your new password');
  await expect(page).toHaveURL(/\/login$/);

  // The old password no longer works; the new one does, by username.
  await page.getByLabel('Username or email').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'LOGIN' }).click();
  await expectToast(page, 'Access Denied', 'Invalid username/email or password');
  await login(page, account.username, newPassword);

  // Change password: fields cleared on success.
  await page.goto('/settings/password');
  const current = page.getByLabel('Current password');
  await current.fill(newPassword);
  await page.getByLabel('New password', { exact: true }).fill('changed-password-3');
  await page.getByLabel('Confirm new password').fill('changed-password-3');
  await page.screenshot({ path: screenshotPath('change-password'), fullPage: true });
  await page.getByRole('button', { name: 'UPDATE PASSWORD' }).click();
  await expectToast(page, 'Password Changed', 'Your password has been updated successfully');
  await expect(current).toHaveValue('');
  await expect(page.getByLabel('New password', { exact: true })).toHaveValue('');

  await logout(page);
  await login(page, account.email, 'changed-password-3');
});

test('the auth forms show the validation and server texts', async ({ page }) => {
  await page.goto('/register');
  const taken = newAccount('taken');
  await page.getByLabel('Username').fill(taken.username);
  await page.getByLabel('Email').fill(taken.email);
  await page.getByLabel('Password', { exact: true }).fill('password-1');
  await page.getByLabel('Confirm password').fill('password-2');
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  await expectToast(page, 'Registration Failed', 'Passwords do not match');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm password').fill('short');
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  await expectToast(page, 'Registration Failed', 'Password must be at least 8 characters');

  await page.goto('/login');
  await page.getByLabel('Username or email').fill('nobody-here');
  await page.getByLabel('Password').fill('whatever-password');
  await page.getByRole('button', { name: 'LOGIN' }).click();
  await expectToast(page, 'Access Denied', 'Invalid username/email or password');
  await page.screenshot({ path: screenshotPath('login-denied'), fullPage: true });

  await page.goto('/reset-password');
  await expect(page.getByLabel('Reset token')).toBeVisible();
  await page.getByLabel('Reset token').fill('not-a-real-token');
  await page.getByLabel('New password', { exact: true }).fill('password-123');
  await page.getByLabel('Confirm new password').fill('password-123');
  await page.getByRole('button', { name: 'RESET PASSWORD' }).click();
  await expectToast(page, 'Reset Failed', 'Invalid or expired reset token');
});

test('a member whose session ends is told and sent to sign in again', async ({ page }) => {
  await signUp(page);
  await page.goto('/settings/password');
  await expect(page.getByRole('button', { name: 'UPDATE PASSWORD' })).toBeVisible();
  await page.context().clearCookies();
  // Hold the redirect to /api/login until the toast has been seen (the page unloads with it).
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/login', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel('Current password').fill('whatever-password');
  await page.getByLabel('New password', { exact: true }).fill('another-password');
  await page.getByLabel('Confirm new password').fill('another-password');
  const toast = await nextToast(page);
  await page.getByRole('button', { name: 'UPDATE PASSWORD' }).click();
  expect(await toast()).toEqual({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
  });
  release();
  await expect(page).toHaveURL(/\/login$/);
});
