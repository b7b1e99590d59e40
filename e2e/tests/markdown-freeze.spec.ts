import type { Page } from '@playwright/test';
import { MARKDOWN_TEXTS } from '@termpaste/contracts';
import { expect, test } from './test.js';
import { baseURL, newAccount, screenshotPath, signUp } from './support.js';

/**
 * Markdown no member can freeze a reader's page with (micromark takes minutes on `*a` repeated): each test
 * opens such a text and checks the page shows its title and answers input within a second.
 */

async function post<T = { id: number }>(page: Page, path: string, data: unknown): Promise<T> {
  const response = await page.request.post(path, { data, headers: { Origin: baseURL() } });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as T;
}

/**
 * Records, from the next navigation on, the page's long tasks (the main thread busy over 50 ms) and when
 * (performance.now()) an h1 reading `title` was first in the page.
 */
async function watchPage(page: Page, title: string) {
  await page.addInitScript((wanted) => {
    const w = window as unknown as { __longTasks: number[]; __titleAt?: number };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
    const seen = new MutationObserver(() => {
      if ([...document.querySelectorAll('h1')].some((h1) => h1.textContent === wanted)) {
        w.__titleAt = performance.now();
        seen.disconnect();
      }
    });
    seen.observe(document, { subtree: true, childList: true, characterData: true });
  }, title);
}

const longestTask = (page: Page) =>
  page.evaluate(() =>
    Math.round(Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks)),
  );

/**
 * Opens `path` and waits for its h1; how long after its data arrived (`apiPath` from the API, or the painted
 * document that carries it) it was in the page (ms).
 */
async function openAndTimeTitle(page: Page, path: string, title: string, apiPath: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  const { titleAt, arrived } = await page.evaluate((wanted) => {
    const entry = performance
      .getEntriesByType('resource')
      .find((e) => new URL(e.name).pathname === wanted) as PerformanceResourceTiming | undefined;
    // A member's painted page brings the paste's data with the document: no API read comes first.
    const painted = document.getElementById('tp-queries') !== null;
    const page = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return {
      titleAt: (window as unknown as { __titleAt: number }).__titleAt,
      arrived: (painted ? page?.responseEnd : entry?.responseEnd) ?? NaN,
    };
  }, apiPath);
  return Math.round(titleAt - arrived);
}

/** The page answers input within a second: keystrokes into `box` show in it. */
async function expectTypingAnswers(page: Page, box: ReturnType<Page['getByRole']>) {
  await box.focus();
  const started = Date.now();
  await page.keyboard.type('ok');
  await expect(box).toHaveValue('ok', { timeout: 1_000 });
  return Date.now() - started;
}

test('a paste of 400,000 characters of `*a` shows its title and answers input at once, its text plain under a note', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signUp(page, newAccount('stars'));
  const content = '*a'.repeat(200_000);
  const { id } = await post(page, '/api/threads', { title: 'Four hundred thousand stars', content });
  await watchPage(page, 'Four hundred thousand stars');

  const titleAfter = await openAndTimeTitle(
    page,
    `/thread/${id}`,
    'Four hundred thousand stars',
    `/api/threads/${id}`,
  );
  expect(titleAfter).toBeLessThan(1_000);
  const typed = await expectTypingAnswers(page, page.getByRole('textbox', { name: 'Your reply' }));

  const paste = page.locator('.forum-thread__content');
  // After the parse's budget (markdown-worker-client.ts: 6 s for 400,000 characters).
  // By CSS, not by text: Playwright's text search over 400 KB of text would itself be a long task.
  await expect(paste.locator('.tp-markdown__plain-note')).toHaveText(MARKDOWN_TEXTS.plainSlow, {
    timeout: 20_000,
  });
  expect(await paste.locator('.tp-markdown__plain').evaluate((plain) => plain.textContent)).toBe(content);
  await expect(paste.locator('em')).toHaveCount(0);
  const longest = await longestTask(page);
  console.log(
    `400,000 × *a paste: title ${titleAfter} ms after its data, typing shown ${typed} ms after the first key, ` +
      `longest task ${longest} ms`,
  );
  expect(longest).toBeLessThan(1_000);
  await page.screenshot({ path: screenshotPath('markdown-plain-fallback') });
});

test('a reply of 100,000 characters of `*a` leaves its paste readable and the page answering', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signUp(page, newAccount('reply'));
  const { id } = await post(page, '/api/threads', {
    title: 'A quiet paste',
    content: '# Setup\n\nRun **this** first.',
  });
  const content = '*a'.repeat(50_000);
  await post(page, `/api/threads/${id}/replies`, { content, parentId: null });
  await watchPage(page, 'A quiet paste');

  const titleAfter = await openAndTimeTitle(page, `/thread/${id}`, 'A quiet paste', `/api/threads/${id}`);
  expect(titleAfter).toBeLessThan(1_000);
  await expect(page.getByRole('heading', { name: 'Setup' })).toBeVisible();
  const typed = await expectTypingAnswers(page, page.getByRole('textbox', { name: 'Your reply' }));

  const note = page.locator('.forum-reply .tp-markdown__plain-note');
  await expect(note).toHaveText(MARKDOWN_TEXTS.plainSlow, { timeout: 20_000 });
  const longest = await longestTask(page);
  console.log(
    `100,000 × *a reply: title ${titleAfter} ms after its data, typing shown ${typed} ms after the first key, ` +
      `longest task ${longest} ms`,
  );
  expect(longest).toBeLessThan(1_000);
});

test('a private message and a bio of `*a` at their longest leave the page answering', async ({
  browser,
  page,
}) => {
  test.setTimeout(60_000);
  const reader = await signUp(page, newAccount('inbox'));
  const senderContext = await browser.newContext();
  const sender = await senderContext.newPage();
  await signUp(sender, newAccount('sender'));
  // A private message's limit (MESSAGE_CONTENT_MAX) and a bio's (PROFILE_LIMITS.bioMax).
  await post(sender, '/api/messages', {
    recipientEmail: reader.username,
    subject: 'Twenty thousand stars',
    content: '*a'.repeat(10_000),
  });
  const bio = await page.request.put('/api/user/profile', {
    data: { bio: '*a'.repeat(2_500) },
    headers: { Origin: baseURL() },
  });
  expect(bio.status(), await bio.text()).toBe(200);
  await watchPage(page, 'Twenty thousand stars');

  await page.goto('/messages');
  await page
    .getByRole('tabpanel')
    .getByRole('listitem')
    .filter({ hasText: 'Twenty thousand stars' })
    .getByRole('button')
    .click();
  const detail = page.getByRole('region', { name: 'MESSAGE' });
  await expect(detail.getByRole('heading', { name: 'Twenty thousand stars' })).toBeVisible();
  await expect(detail.locator('.tp-markdown__loading')).toHaveCount(0);
  await expect(detail.locator('.tp-markdown')).toContainText('a');
  await page.getByRole('button', { name: 'COMPOSE' }).click();
  await expectTypingAnswers(page, page.getByRole('textbox', { name: 'Subject' }));
  expect(await longestTask(page)).toBeLessThan(1_000);

  await page.goto('/profile');
  const bioShown = page.locator('.forum-profile__bio');
  await expect(bioShown.locator('.tp-markdown__loading')).toHaveCount(0);
  await expect(bioShown).toContainText('a');
  expect(await longestTask(page)).toBeLessThan(1_000);
});

test('an ordinary Markdown paste of 2 KB is still formatted, parsed in the worker', async ({ page }) => {
  await signUp(page, newAccount('ordinary'));
  const section = [
    '# Notes',
    '',
    'Some **bold** text and `code`, a [link](https://example.com).',
    '',
    '```js',
    'const x = 1;',
    '```',
    '',
    '- one',
    '- two',
    '',
    '| a | b |',
    '| - | - |',
    '| 1 | 2 |',
    '',
  ].join('\n');
  const content = section.repeat(Math.ceil(2_000 / section.length));
  const { id } = await post(page, '/api/threads', { title: 'Ordinary notes', content });
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname));
  await watchPage(page, 'Ordinary notes');
  const started = Date.now();
  await page.goto(`/thread/${id}`);
  const paste = page.locator('.forum-thread__content');
  await expect(paste.getByRole('heading', { name: 'Notes' }).first()).toBeVisible();
  const firstContent = Date.now() - started;
  await expect(paste.locator('code.hljs .hljs-keyword').first()).toHaveText('const');
  await expect(paste.getByRole('table').first()).toBeVisible();
  await expect(paste.locator('.tp-markdown__plain-note')).toHaveCount(0);
  expect(workers).toContain('/markdown-worker.js');
  console.log(
    `2 KB Markdown paste: formatted ${firstContent} ms after the navigation started, ` +
      `longest task ${await longestTask(page)} ms`,
  );
  await page.screenshot({ path: screenshotPath('markdown-worker-formatted') });
});
