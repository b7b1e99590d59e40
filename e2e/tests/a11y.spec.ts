import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from './test.js';
import { axe, formatFindings, type Finding } from './axe.js';
import { baseURL, newAccount, OPEN_TOAST, signInAsOwner, signUp } from './support.js';

/**
 * axe over every screen, signed out, as a member and as an admin, dialogs open, at desktop and phone
 * widths. A test fails on any serious or critical violation (printing all) or a screen without one h1.
 */

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 800 },
] as const;

interface Screen {
  name: string;
  /** Opened with page.goto, unless `open` gets there itself. */
  path?: string;
  open?: (page: Page) => Promise<void>;
  /** Visible once the screen has what it shows. */
  ready: (page: Page) => Locator;
  /** Undoes `open` (closes a dialog) once axe has run. */
  close?: (page: Page) => Promise<void>;
}

async function check(page: Page, screens: Screen[], width: number): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const screen of screens) {
    await test.step(screen.name, async () => {
      if (screen.path) await page.goto(screen.path);
      if (screen.open) await screen.open(page);
      await expect(screen.ready(page)).toBeVisible();
      findings.push(...(await axe(page, `${screen.name} @${width}`)));
      // One h1 a screen, naming it (axe's page-has-heading-one asks for one at least, and only as advice).
      await expect(page.locator('h1'), `${screen.name}: one h1`).toHaveCount(1);
      if (screen.close) await screen.close(page);
    });
  }
  return findings;
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { name });

async function post(page: Page, path: string, data: object): Promise<{ id: number }> {
  const response = await page.request.post(path, { data, headers: { Origin: baseURL() } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number };
}

async function memberPage(browser: Browser, prefix: string, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const account = await signUp(page, newAccount(prefix));
  const me = (await (await page.request.get('/api/auth/user')).json()) as { id: number };
  return { page, account, id: me.id };
}

/** Opens the sidebar on a phone (a sheet) or leaves it as it is on a desktop. */
const sidebarSheet: Screen = {
  name: 'sidebar sheet',
  path: '/',
  open: async (page) => {
    await page.getByRole('button', { name: 'Toggle sidebar (Ctrl+B)' }).click();
  },
  ready: (page) => page.getByRole('dialog', { name: 'Navigation' }),
  close: async (page) => {
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Navigation' })).toBeHidden();
  },
};

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('signed out: landing, the sign-in pages and 404 have no serious violation', async ({ page }) => {
      test.setTimeout(90_000);
      const screens: Screen[] = [
        { name: 'landing', path: '/', ready: (p) => p.locator('.shell-landing__cta--ready') },
        { name: 'login', path: '/login', ready: heading('LOGIN') },
        { name: 'register', path: '/register', ready: heading('REGISTER') },
        { name: 'forgot password', path: '/forgot-password', ready: heading('FORGOT PASSWORD') },
        {
          name: 'forgot password, sent',
          open: async (p) => {
            await p.getByLabel('Email').fill(`nobody.${Date.now()}@e2e.termpaste.test`);
            await p.getByRole('button', { name: 'SEND RESET LINK' }).click();
            await expect(p.getByText('If an account exists with that email')).toBeVisible();
          },
          // And its toast, which may come a moment after the text (a page's first toast fetches the
          // toasts' code): measured before it was in, it was caught fading in, at too little contrast.
          ready: (p) => p.locator(OPEN_TOAST, { hasText: 'Reset Link Sent' }),
        },
        { name: 'reset password', path: '/reset-password', ready: (p) => p.getByLabel('Reset token') },
        {
          name: 'reset password with a token',
          path: '/reset-password?token=abc',
          ready: (p) => p.getByLabel('Confirm new password'),
        },
        { name: '404 (visitor)', path: '/no-such-page', ready: heading('404 Page Not Found') },
      ];
      const findings = await check(page, screens, viewport.width);
      expect(formatFindings(findings), 'serious or critical axe violations').toBe('');
    });

    test('a member: every screen, the chat popover, the user menu and the sidebar sheet', async ({
      browser,
    }) => {
      test.setTimeout(180_000);
      const member = await memberPage(browser, 'axe', viewport);
      const other = await memberPage(browser, 'axeb', viewport);
      const word = `axolotl${Date.now()}`;
      const paste = await post(member.page, '/api/threads', {
        title: `Reverse shell one-liners ${word}`,
        // A member's `#` heading: the screen's one h1 is still the paste's title.
        content: [
          '# Setup',
          '',
          'Listen first:',
          '',
          '```sh',
          'nc -lvnp 4444',
          '```',
          '',
          '## Notes',
          '',
          '> be careful',
        ].join('\n'),
      });
      await post(other.page, `/api/threads/${paste.id}/replies`, {
        content: `Nice, **thanks** @${member.account.username}`,
      });
      await post(other.page, '/api/messages', {
        recipientEmail: member.account.email,
        subject: `hello ${word}`,
        content: 'Meet in the chat?',
      });
      await post(other.page, '/api/chat/messages', { content: `anyone here? ${word}` });

      const screens: Screen[] = [
        { name: 'home', path: '/', ready: (p) => p.getByText(/^Showing \d+ of \d+ total pastes$/) },
        {
          name: 'home, chat popover open',
          open: (p) => p.getByRole('button', { name: 'Open global chat' }).click(),
          ready: (p) => p.getByRole('dialog', { name: 'GLOBAL CHAT' }).getByText(`anyone here? ${word}`),
          close: async (p) => {
            await p.keyboard.press('Escape');
            await expect(p.getByRole('dialog', { name: 'GLOBAL CHAT' })).toBeHidden();
          },
        },
        {
          name: 'home, user menu open',
          open: (p) => p.getByRole('button', { name: 'User menu' }).click(),
          ready: (p) => p.getByRole('menu'),
          close: async (p) => {
            await p.keyboard.press('Escape');
            await expect(p.getByRole('menu')).toBeHidden();
          },
        },
        {
          name: 'home, keyboard help open',
          open: (p) => p.keyboard.press('?'),
          ready: (p) => p.getByRole('dialog', { name: 'KEYBOARD SHORTCUTS' }),
          close: async (p) => {
            await p.keyboard.press('Escape');
            await expect(p.getByRole('dialog', { name: 'KEYBOARD SHORTCUTS' })).toBeHidden();
          },
        },
        {
          name: 'home, a paste selected with j',
          open: (p) => p.keyboard.press('j'),
          ready: (p) => p.locator('[data-keyboard-selected]'),
        },
        ...(viewport.width < 768 ? [sidebarSheet] : []),
        { name: 'paste', path: `/thread/${paste.id}`, ready: heading('1 REPLY') },
        {
          name: 'add paste, preview shown',
          path: '/thread/new',
          open: (p) => p.getByRole('button', { name: 'SHOW PREVIEW' }).click(),
          ready: (p) => p.getByText('Preview will appear here...'),
        },
        { name: 'profile', path: `/profile/${member.id}`, ready: heading(member.account.username) },
        { name: 'members', path: '/users', ready: heading('USERS') },
        { name: 'search', path: `/search?q=${word}`, ready: heading('1 result') },
        { name: 'search, no query', path: '/search', ready: (p) => p.getByText('Enter a search query') },
        { name: 'hardest', path: '/hardest', ready: heading('HARDEST POSTS') },
        { name: 'messages', path: '/messages', ready: (p) => p.getByText(`hello ${word}`) },
        {
          name: 'messages, a message open',
          open: (p) => p.getByText(`hello ${word}`).click(),
          ready: (p) => p.getByText('Meet in the chat?'),
        },
        {
          name: 'messages, compose',
          open: (p) => p.getByRole('button', { name: 'COMPOSE' }).click(),
          ready: (p) => p.getByRole('form', { name: 'Compose message' }),
        },
        { name: 'notifications', path: '/notifications', ready: heading(/NOTIFICATIONS/) },
        {
          name: 'chat',
          path: '/chat',
          ready: (p) => p.getByRole('log', { name: 'Chat messages' }).getByText(`anyone here? ${word}`),
        },
        { name: 'ranks', path: '/ranks', ready: heading('ACTIVE RANK') },
        { name: 'settings', path: '/settings', ready: heading('PROFILE SETTINGS') },
        { name: 'change password', path: '/settings/password', ready: heading('CHANGE PASSWORD') },
        { name: 'access tokens', path: '/settings/tokens', ready: heading('ACCESS TOKENS') },
        { name: 'ssh keys', path: '/settings/keys', ready: heading(/^SSH KEYS$/) },
        { name: 'your data', path: '/settings/account', ready: (p) => p.getByTestId('export-status') },
        { name: 'upgrades', path: '/upgrades', ready: heading('UPGRADES') },
        { name: 'support', path: '/support', ready: heading('SUPPORT') },
        { name: 'admin, refused', path: '/admin', ready: (p) => p.getByText('ACCESS DENIED [403]') },
        { name: '404 (member)', path: '/no-such-page', ready: heading('404 Page Not Found') },
      ];
      const findings = await check(member.page, screens, viewport.width);
      expect(formatFindings(findings), 'serious or critical axe violations').toBe('');
    });

    test('an admin: the panel, its audit log, moderation and the confirm dialog', async ({ page }) => {
      test.setTimeout(120_000);
      await signInAsOwner(page);
      const paste = await post(page, '/api/threads', {
        title: `Moderated paste ${Date.now()}`,
        content: 'Nothing to see here.',
      });
      const screens: Screen[] = [
        { name: 'admin users', path: '/admin', ready: (p) => p.getByRole('table', { name: 'Users' }) },
        {
          name: 'admin audit log',
          path: '/admin?tab=audit',
          ready: (p) => p.getByRole('tab', { name: 'AUDIT LOG', selected: true }),
        },
        {
          name: 'admin review queue',
          path: '/admin/review',
          ready: (p) => p.getByRole('tab', { name: /^REVIEW/, selected: true }),
        },
        {
          name: 'paste, moderation',
          path: `/thread/${paste.id}`,
          ready: (p) => p.getByRole('group', { name: 'Moderation' }),
        },
        {
          name: 'paste, confirm dialog open',
          open: (p) =>
            p
              .getByRole('group', { name: 'Moderation' })
              .getByRole('button', { name: 'DELETE', exact: true })
              .click(),
          ready: (p) => p.getByRole('alertdialog'),
          close: async (p) => {
            await p.keyboard.press('Escape');
            await expect(p.getByRole('alertdialog')).toBeHidden();
          },
        },
        ...(viewport.width < 768 ? [sidebarSheet] : []),
      ];
      const findings = await check(page, screens, viewport.width);
      expect(formatFindings(findings), 'serious or critical axe violations').toBe('');
    });
  });
}

/** The animations playing on the page now (a blinking cursor, a dialog sliding in, a spinner). */
const runningAnimations = (page: Page) =>
  page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.playState === 'running')
      .map((a) => (a.effect as KeyframeEffect | null)?.target?.className ?? '?'),
  );

test('prefers-reduced-motion: the landing types nothing, and no animation or transition plays anywhere', async ({
  browser,
}) => {
  const tagline = 'Share your pastes with the underground.';
  // Without the wish, the landing moves: the cursor blinks and the tagline is typed (the check can fail).
  const moving = await browser.newPage();
  await moving.goto('/');
  await expect(moving.getByTestId('tagline')).not.toHaveText(tagline, { timeout: 1000 });
  expect(await runningAnimations(moving)).not.toEqual([]);
  await moving.close();

  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto('/');
  // Whole from its first paint: the server's painted page shows the whole line (first-paint.spec.ts),
  // and the app's tagline is whole as soon as it is in the page.
  const first = await page
    .locator('#root')
    .getByTestId('tagline')
    .evaluate((el) => el.textContent);
  expect(first).toBe(tagline);
  expect(await runningAnimations(page)).toEqual([]);

  // A member's pages: a dialog opens, a toast shows, buttons change colour on hover, all at once.
  await signUp(page, newAccount('still'));
  await page.goto('/');
  await expect(page.getByText(/^Showing \d+ of \d+ total pastes$|^No pastes yet/)).toBeVisible();
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'KEYBOARD SHORTCUTS' })).toBeVisible();
  expect(await runningAnimations(page)).toEqual([]);
  const transitions = await page.evaluate(
    () =>
      [...document.querySelectorAll('*')]
        .map((el) => getComputedStyle(el))
        .filter((style) => style.transitionDuration.split(',').some((d) => parseFloat(d) > 0)).length,
  );
  expect(transitions).toBe(0);
  await page.keyboard.press('Escape');
  await page.goto('/settings/password');
  await page.getByLabel('Current password').fill('wrong-password-1');
  await page.getByLabel('New password', { exact: true }).fill('another-password-1');
  await page.getByLabel('Confirm new password').fill('another-password-1');
  await page.getByRole('button', { name: 'UPDATE PASSWORD' }).click();
  await expect(page.locator(OPEN_TOAST)).toBeVisible();
  expect(await runningAnimations(page)).toEqual([]);
  await context.close();
});
