import type { Page } from '@playwright/test';
import { expect, test } from './test.js';
import { baseURL, newAccount, screenshotPath, signUp } from './support.js';

/** Keyboard shortcuts and the skip link, in Chromium, with no mouse at all. */

async function post(page: Page, path: string, data: object): Promise<{ id: number }> {
  const response = await page.request.post(path, { data, headers: { Origin: baseURL() } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number };
}

/** The item j and k selected (there is at most one). */
const selectedItem = (page: Page) => page.locator('[data-keyboard-selected]');
/** The polite live region that announces the selection. */
const announcer = (page: Page) => page.getByRole('status').filter({ hasText: /^(Paste|Reply) \d+ of \d+/ });

/** Presses j until the selected item reads `text` (other tests add pastes to home meanwhile). */
async function selectWithJ(page: Page, text: string, max = 80) {
  for (let i = 0; i < max; i++) {
    const selected = selectedItem(page);
    if ((await selected.count()) > 0 && (await selected.textContent())?.includes(text)) return;
    await page.keyboard.press('j');
    await expect(selectedItem(page)).toHaveCount(1);
  }
  throw new Error(`j never reached "${text}"`);
}

/** Presses Tab until the focus is on `name`d element; fails after `max` presses. */
async function tabTo(page: Page, role: 'button' | 'link' | 'textbox', name: string, max = 40) {
  const target = page.getByRole(role, { name, exact: true });
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`Tab never reached the ${role} "${name}"`);
}

test('a member finds a paste with j, opens it with o and replies to a reply with r, keyboard only', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const member = await signUp(page, newAccount('keys'));
  const word = `kestrel${Date.now()}`;
  const title = `Keyboard paste ${word}`;
  // Two pastes at least: j and k have somewhere to go.
  await post(page, '/api/threads', { title: `Another paste ${word}`, content: 'Not this one.' });
  const paste = await post(page, '/api/threads', { title, content: 'Select me with **j**.' });
  await post(page, `/api/threads/${paste.id}/replies`, { content: `first reply ${word}` });
  await post(page, `/api/threads/${paste.id}/replies`, { content: `second reply ${word}` });

  // Home: j moves down the list, k back up; the row is marked, focused, in view and announced.
  await page.goto('/');
  await expect(page.getByText(/^Showing \d+ of \d+ total pastes$/)).toBeVisible();
  await page.keyboard.press('j');
  const first = selectedItem(page);
  await expect(first).toHaveAttribute('aria-current', 'true');
  await expect(first).toBeFocused();
  await expect(announcer(page)).toHaveText(/^Paste 1 of \d+$/);
  await page.keyboard.press('j');
  await expect(announcer(page)).toHaveText(/^Paste 2 of \d+$/);
  await page.keyboard.press('k');
  await expect(announcer(page)).toHaveText(/^Paste 1 of \d+$/);
  await expect(page.locator('[aria-current="true"][data-keyboard-item]')).toHaveCount(1);
  await selectWithJ(page, title);
  await expect(selectedItem(page)).toBeInViewport();

  // o opens it.
  await page.keyboard.press('o');
  await expect(page).toHaveURL(new RegExp(`/thread/${paste.id}$`));
  await expect(page.getByRole('heading', { name: '2 REPLIES' })).toBeVisible();

  // On the paste, j and k move through the replies.
  await page.keyboard.press('j');
  await expect(selectedItem(page)).toContainText(`first reply ${word}`);
  await expect(announcer(page)).toHaveText('Reply 1 of 2');
  await page.keyboard.press('j');
  await expect(selectedItem(page)).toContainText(`second reply ${word}`);
  await expect(selectedItem(page)).toBeFocused();
  await page.keyboard.press('k');
  await expect(selectedItem(page)).toContainText(`first reply ${word}`);
  await page.keyboard.press('j');

  // r answers the selected reply: the box has the focus, and the r itself is not typed into it.
  await page.keyboard.press('r');
  const box = page.getByRole('textbox', { name: /reply/i });
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('');
  await expect(page.getByText('Replying to')).toContainText(member.username);
  // Typing in the box is typing: j, c and g h do nothing but write.
  const text = `answered by keyboard: j k c gh ${word}`;
  await page.keyboard.type(text);
  await expect(box).toHaveValue(text);
  await expect(page).toHaveURL(new RegExp(`/thread/${paste.id}$`));

  // Tab to POST REPLY, Enter: the reply is under the second one.
  await tabTo(page, 'button', 'POST REPLY');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: '3 REPLIES' })).toBeVisible();
  const posted = page.getByRole('listitem').filter({ hasText: text });
  await expect(posted).toHaveAttribute('data-depth', '1');
  await expect(box).toHaveValue('');

  // Back home with g h (after Tab has left the box): Enter opens the selected paste too.
  await page.keyboard.press('Tab');
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await expect(page.getByText(/^Showing \d+ of \d+ total pastes$/)).toBeVisible();
  await selectWithJ(page, title);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/thread/${paste.id}$`));
});

test('? opens the help and Esc closes it; g h, g n, g m and c go places; / focuses the search', async ({
  page,
}) => {
  const member = await signUp(page, newAccount('keys'));
  await page.goto('/hardest');
  await expect(page.getByRole('heading', { name: 'HARDEST POSTS' })).toBeVisible();

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'KEYBOARD SHORTCUTS' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('Go to notifications');
  // Shortcuts are off behind the dialog.
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await expect(page).toHaveURL(/\/hardest$/);
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // Tab alone reaches it too: the user menu's Keyboard shortcuts; the focus comes back to the menu's button.
  // Named by the username it shows, then what it opens.
  const menuButton = page.getByRole('button', { name: `${member.username} user menu` });
  await tabTo(page, 'button', `${member.username} user menu`);
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name: /Keyboard shortcuts/ });
  await expect(item).toBeVisible();
  // The menu takes the focus once it is mounted, and each arrow moves it in a timer of Radix's own:
  // wait for each move, or a quick press lands before it and the focus overshoots the item.
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.closest('[role="menu"]') != null))
    .toBe(true);
  for (let i = 0; i < 6 && !(await item.evaluate((el) => el === document.activeElement)); i++) {
    const before = await page.evaluateHandle(() => document.activeElement);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate((was) => document.activeElement !== was, before)).toBe(true);
    await before.dispose();
  }
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await expect(menuButton).toBeFocused();

  // g, then too long a wait: h alone does nothing.
  await page.keyboard.press('g');
  await page.waitForTimeout(1700);
  await page.keyboard.press('h');
  await expect(page).toHaveURL(/\/hardest$/);

  // With Ctrl, Alt or Cmd held the keys are not ours.
  await page.keyboard.press('Alt+g');
  await page.keyboard.press('h');
  await page.keyboard.press('Alt+c');
  await expect(page).toHaveURL(/\/hardest$/);

  await page.keyboard.press('g');
  await page.keyboard.press('n');
  await expect(page).toHaveURL(/\/notifications$/);
  await page.keyboard.press('g');
  await page.keyboard.press('m');
  await expect(page).toHaveURL(/\/messages$/);
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await expect(page).toHaveURL(new RegExp(`${baseURL()}/$`));
  await expect(page.getByText(/^Showing \d+ of \d+ total pastes$|^No pastes yet/)).toBeVisible();

  // / focuses the top bar's search box, without typing a slash; what is typed there stays there.
  await page.keyboard.press('/');
  const search = page.getByRole('banner').getByRole('searchbox', { name: 'Search pastes' });
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('');
  await page.keyboard.type('gh c j ?');
  await expect(search).toHaveValue('gh c j ?');
  await expect(page).toHaveURL(new RegExp(`${baseURL()}/$`));
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=gh/);

  // c: a new paste, once Tab has left the field.
  await page.getByRole('heading', { name: 'SEARCH' }).waitFor();
  await page.keyboard.press('Tab');
  await expect(search).not.toBeFocused();
  await page.keyboard.press('c');
  await expect(page).toHaveURL(/\/thread\/new$/);
});

test('the skip link is the first Tab stop of every page and moves the focus to the main content', async ({
  page,
}) => {
  // A visitor's page.
  await page.goto('/login');
  // The sign-in pages are fetched after the shell: the link waits for a page to skip to.
  await expect(page.getByRole('heading', { name: 'LOGIN' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#content')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'TERMPASTE' })).toBeFocused();

  // A member's page: past the sidebar and the top bar, straight to the screen.
  await signUp(page, newAccount('keys'));
  await page.goto('/');
  await expect(page.getByText(/^Showing \d+ of \d+ total pastes$/)).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#content')).toBeFocused();
  expect(new URL(page.url()).hash).toBe('');
  await page.keyboard.press('Tab');
  await expect(page.locator('main#content :focus')).toHaveCount(1);
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 800 },
]) {
  test(`screenshots at ${viewport.width}: skip link, focus ring, selected paste, help dialog`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signUp(page, newAccount('shots'));
    await post(page, '/api/threads', { title: `Screenshot paste ${Date.now()}`, content: 'x' });
    await page.goto('/');
    await expect(page.getByText(/^Showing \d+ of \d+ total pastes$/)).toBeVisible();
    const shot = (name: string) =>
      page.screenshot({ path: screenshotPath(`keyboard-${name}-${viewport.width}`) });

    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await shot('skip-link');
    await page.keyboard.press('Tab');
    await shot('focus-ring');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect(selectedItem(page)).toBeFocused();
    await shot('selected');
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'KEYBOARD SHORTCUTS' })).toBeVisible();
    await page.waitForTimeout(300);
    await shot('help');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByRole('menuitem', { name: /Keyboard shortcuts/ })).toBeVisible();
    await page.waitForTimeout(300);
    await shot('user-menu');
    await context.close();
  });
}
