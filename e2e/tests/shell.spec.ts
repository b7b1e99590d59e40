import { expect, test } from './test.js';
import { screenshotPath, signInAsOwner, signUp } from './support.js';

test('a signed-in member gets the layout and the forum remote mounted through Module Federation', async ({
  page,
}) => {
  const member = await signUp(page);
  await page.goto('/');
  await expect(page.getByText('STATUS:')).toContainText('ONLINE');
  // Home comes from the forum remote.
  await expect(page.getByRole('region', { name: 'RECENT PASTES' })).toBeVisible();
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  for (const item of [
    'Home',
    'Add Paste',
    'Users',
    'Upgrades',
    'Hardest Posts',
    'Support',
    'Profile',
    'Ranks',
    'Settings',
    'Logout',
  ]) {
    await expect(sidebar.getByText(item, { exact: true })).toBeVisible();
  }
  await expect(sidebar.getByText('Admin Panel')).toHaveCount(0);
  // The footer shows the part of the e-mail before the @.
  await expect(sidebar.getByText(member.email.split('@')[0]!, { exact: true })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', /^\/profile\/\d+$/);
  await page.screenshot({ path: screenshotPath('signed-in-home'), fullPage: true });

  await sidebar.getByRole('link', { name: 'Settings' }).click();
  // Settings comes from the settings remote.
  await expect(page.getByRole('region', { name: 'PROFILE SETTINGS' })).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});

test('a remote that cannot load shows the module offline panel while the shell keeps working', async ({
  page,
}) => {
  await signUp(page);
  // remotes.json (which the server puts in the page) names an address where no forum remote is deployed
  // (the real server answers 404 there).
  await page.route(
    (url) => url.pathname === '/',
    async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        '"forum":"/remotes/forum/remoteEntry.js"',
        '"forum":"/remotes/forum-moved/remoteEntry.js"',
      );
      const headers = { ...response.headers() };
      delete headers['content-encoding'];
      delete headers['content-length'];
      await route.fulfill({ status: response.status(), headers, body: html });
    },
  );
  let forumAttempts = 0;
  page.on('request', (request) => {
    if (request.url().includes('/remotes/forum-moved/')) forumAttempts += 1;
  });

  await page.goto('/');
  await expect(page.getByTestId('module-offline')).toBeVisible();
  await expect(page.getByTestId('module-offline')).toContainText('MODULE OFFLINE');
  expect(forumAttempts).toBe(2); // the first try and one retry
  await expect(page.getByText('STATUS:')).toContainText('ONLINE');
  await page.screenshot({ path: screenshotPath('module-offline'), fullPage: true });

  // The rest of the shell still works: another remote mounts fine.
  await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Ranks' }).click();
  // /ranks comes from the settings remote.
  await expect(page.getByRole('region', { name: 'ACTIVE RANK' })).toBeVisible();
});

test('Ctrl+B collapses the sidebar to icons and the choice survives a reload', async ({ page }) => {
  await signUp(page);
  await page.goto('/');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  const cookie = (await page.context().cookies()).find((c) => c.name === 'sidebar_state');
  expect(cookie?.value).toBe('false');
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(604_800 - 60);
  await page.reload();
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  await page.screenshot({ path: screenshotPath('sidebar-collapsed'), fullPage: true });
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
});

test('under 768 px the sidebar is a slide-in sheet', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signUp(page);
  await page.goto('/');
  await expect(page.getByRole('complementary', { name: 'Sidebar' })).toHaveCount(0);
  await page.getByRole('button', { name: /toggle sidebar/i }).click();
  const sheet = page.getByRole('dialog');
  await expect(sheet.getByText('Hardest Posts')).toBeVisible();
  await page.screenshot({ path: screenshotPath('mobile-sheet') });
  await sheet.getByRole('link', { name: 'Hardest Posts' }).click();
  await expect(page).toHaveURL(/\/hardest$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('the top bar search goes to /search only with text', async ({ page }) => {
  await signUp(page);
  await page.goto('/');
  // The top bar's box (the search page has one of its own).
  const box = page.locator('.shell-search').getByRole('searchbox', { name: 'Search pastes' });
  await box.fill('   ');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await box.fill(' hello world ');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=hello%20world$/);
  // On the search page the box shows what was searched for; elsewhere it is empty again.
  await expect(box).toHaveValue('hello world');
  await page.getByRole('link', { name: 'Home' }).first().click();
  await expect(box).toHaveValue('');
});

test('the owner (OWNER_EMAIL) is an admin and sees the Admin Panel item', async ({ page }) => {
  await signInAsOwner(page);
  await page.goto('/admin');
  await expect(page.getByRole('complementary', { name: 'Sidebar' }).getByText('Admin Panel')).toBeVisible();
  await expect(page.getByRole('region', { name: 'ADMIN PANEL' })).toBeVisible();
});
