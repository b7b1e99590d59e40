import type { Page } from '@playwright/test';
import { expect, test } from './test.js';
import { baseURL, expectToast, newAccount, screenshotPath, signInAsOwner, signUp } from './support.js';

/**
 * Each change shows in the other browser without a reload. The wait is bounded generously: a loaded CI
 * machine runs two workers and the app on two cores (on a quiet one a change shows in well under a second).
 */
const LIVE = { timeout: 5_000 };

async function postPaste(page: Page, title: string, content: string): Promise<number> {
  const res = await page.request.post('/api/threads', {
    data: { title, content },
    headers: { Origin: baseURL() },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

test('two members on one paste see each other live; home counts new pastes', async ({ browser }) => {
  test.setTimeout(120_000);
  // A: the owner (an admin: pins); B: a plain member. Each in a browser context of its own.
  const aContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const a = await aContext.newPage();
  await signInAsOwner(a);
  const bContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const b = await bContext.newPage();
  await signUp(b, newAccount('reader'));

  // A long paste, so that the replies sit below the first screen.
  const word = `livewire${Date.now()}`;
  const content = Array.from({ length: 60 }, (_, i) => `Line ${i + 1} of the ${word} notes.\n`).join('\n');
  const id = await postPaste(a, `Live notes ${word}`, content);

  await a.goto(`/thread/${id}`);
  await b.goto(`/thread/${id}`);
  const bPaste = b.getByRole('region', { name: 'PASTE' });
  await expect(bPaste.getByRole('heading', { name: `Live notes ${word}` })).toBeVisible();

  // Presence: both are reading it, and both pages say so.
  for (const page of [a, b]) {
    await expect(page.getByTestId('presence-count')).toHaveText('2 reading');
  }

  // B starts a reply, then scrolls back up to read the paste again.
  const draft = 'B is still typing this';
  await b.getByRole('textbox', { name: 'Your reply' }).fill(draft);
  await b.evaluate(() => window.scrollTo(0, 0));
  await b.locator('main').evaluate((main) => main.scrollTo?.(0, 0));

  // A replies: B gets it in its place, below the fold: a pill says so, and takes B there.
  await a.getByRole('textbox', { name: 'Your reply' }).fill(`A answers ${word}`);
  await a.getByRole('button', { name: 'POST REPLY' }).click();
  await expectToast(a, 'Reply posted');
  const bReplies = b.getByRole('region', { name: '1 REPLY' });
  await expect(bReplies).toBeAttached(LIVE);
  await expect(bReplies.getByText(`A answers ${word}`)).toBeAttached(LIVE);
  const pill = b.getByRole('button', { name: '1 new reply' });
  await expect(pill).toBeVisible(LIVE);
  await b.screenshot({ path: screenshotPath('live-thread-pill-1280') });
  await b.setViewportSize({ width: 390, height: 800 });
  await expect(pill).toBeVisible();
  await b.screenshot({ path: screenshotPath('live-thread-pill-390') });
  await b.setViewportSize({ width: 1280, height: 800 });
  await pill.click();
  await expect(pill).toBeHidden();
  await expect(bReplies.getByText(`A answers ${word}`)).toBeInViewport();
  // B's draft is untouched.
  await expect(b.getByRole('textbox', { name: 'Your reply' })).toHaveValue(draft);

  // A up-votes the paste: B's score moves.
  await a
    .getByRole('group', { name: 'Vote on this paste' })
    .getByRole('button', { name: 'Upvote paste' })
    .click();
  await expect(bPaste.getByRole('group', { name: 'Vote on this paste' }).getByTestId('score')).toHaveText(
    '+1',
    LIVE,
  );

  // A pins it (as admin): B sees the pin.
  await a
    .getByRole('group', { name: 'Moderation' })
    .getByRole('button', { name: 'PIN', exact: true })
    .click();
  const dialog = a.getByRole('alertdialog');
  await dialog.getByRole('button', { name: 'PIN', exact: true }).click();
  await expectToast(a, 'Thread pin status toggled');
  await expect(bPaste.getByLabel('Pinned')).toBeVisible(LIVE);
  await expect(b.getByRole('textbox', { name: 'Your reply' })).toHaveValue(draft);
  await b.evaluate(() => window.scrollTo(0, 0));
  await b.screenshot({ path: screenshotPath('live-thread-1280') });

  // B on home; A posts a paste: B is told above the table, and SHOW brings it in.
  await b.goto('/');
  const recent = b.getByRole('table', { name: 'Recent pastes' });
  await expect(recent).toBeVisible();
  await expect(b.getByTestId('presence-count')).toHaveCount(0);
  const newTitle = `Fresh paste ${word}`;
  await postPaste(a, newTitle, 'just posted');
  // At least this one: the suite's other tests post pastes at the same time.
  const bar = b.getByRole('status').filter({ hasText: /\d+ new pastes?/ });
  await expect(bar).toBeVisible(LIVE);
  await expect(recent.getByRole('link', { name: newTitle })).toHaveCount(0);
  await b.screenshot({ path: screenshotPath('live-home-new-pastes-1280') });
  await b.setViewportSize({ width: 390, height: 800 });
  await b.screenshot({ path: screenshotPath('live-home-new-pastes-390') });
  await b.setViewportSize({ width: 1280, height: 800 });
  // The other tests go on posting: their pastes may bring the bar back at once, so what is checked is
  // that SHOW took it away (looked for at every frame), not that it stays away.
  const barGone = b.waitForFunction(
    () => !/\d+ new pastes?/.test(document.querySelector('.forum-new-items')?.textContent ?? ''),
  );
  await bar.getByRole('button', { name: 'SHOW' }).click();
  await barGone;
  await expect(recent.getByRole('link', { name: newTitle })).toBeVisible();

  // The chat page shows how many members are online (A and B at least).
  await b.goto('/chat');
  await expect(b.getByTestId('presence-count')).toHaveText(/^\d+ online$/);
  const online = Number((await b.getByTestId('presence-count').textContent())!.split(' ')[0]);
  expect(online).toBeGreaterThanOrEqual(2);
  await b.screenshot({ path: screenshotPath('live-chat-online-1280') });

  await aContext.close();
  await bContext.close();
});
