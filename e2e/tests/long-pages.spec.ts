import type { Page } from '@playwright/test';
import { expect, test } from './test.js';
import { baseURL, newAccount, signUp } from './support.js';

/**
 * Long pages drawn a little at a time: a paste with 200 replies (the first screen at once, the rest as the
 * page idles or nears them) and a 2,000-line code paste (only the lines on screen in the page). Links to
 * a reply or a line deep inside still land on it.
 */

const REPLIES = 200;

async function post(page: Page, path: string, data: object): Promise<{ id: number }> {
  const response = await page.request.post(path, { data, headers: { Origin: baseURL() } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number };
}

test('a reply deep in a 200-reply paste: its text in the page at once, its permalink lands on it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page, newAccount('long'));
  const paste = await post(page, '/api/threads', { title: 'Two hundred replies', content: 'A paste.' });
  // Posted 20 at a time (the suite's time is counted), and one answer nested under the last.
  const ids: number[] = [];
  for (let n = 1; n <= REPLIES; n += 20) {
    const batch = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(page, `/api/threads/${paste.id}/replies`, { content: `Reply **number ${n + i}**.` }),
      ),
    );
    ids.push(...batch.map((reply) => reply.id));
  }
  const nested = await post(page, `/api/threads/${paste.id}/replies`, {
    content: 'A nested answer.',
    parentId: ids.at(-1),
  });

  const deep = ids[REPLIES - 10]!;
  await page.goto(`/thread/${paste.id}#reply-${deep}`);
  const reply = page.locator(`#reply-${deep}`);
  // Drawn in full (its Markdown, its buttons) and brought to the screen.
  await expect(reply.locator('strong')).toHaveText(`number ${REPLIES - 9}`);
  await expect(reply.getByRole('button', { name: 'REPLY', exact: true })).toBeVisible();
  await expect(reply).toBeInViewport();

  // Every reply is in the page from the start (find-in-page, j/k reach it), as its text until it nears
  // the screen; the last one drawn in full once scrolled to.
  await expect(page.locator('.forum-replies > li')).toHaveCount(REPLIES + 1);
  await expect(page.locator(`#reply-${nested.id}`)).toHaveAttribute('data-depth', '1');
  await expect(page.locator('.forum-reply[data-pending]').first()).toBeAttached();
  const last = page.locator(`#reply-${ids.at(-1)}`);
  await expect(last).toContainText(`number ${REPLIES}`);
  await last.scrollIntoViewIfNeeded();
  await expect(last.locator('strong')).toHaveText(`number ${REPLIES}`);
  await expect(last).not.toHaveAttribute('data-pending');

  // A link on the page to another reply (the hash changes) lands there too.
  const early = ids[5]!;
  await page.evaluate((id) => (window.location.hash = `#reply-${id}`), early);
  await expect(page.locator(`#reply-${early}`)).toBeInViewport();
});

test("a 2,000-line code paste: a line's link lands on it, selected", async ({ page }) => {
  await signUp(page, newAccount('lines'));
  const content = Array.from(
    { length: 2000 },
    (_, i) => `const line_${i + 1} = ${i + 1}; // line ${i + 1}`,
  ).join('\n');
  const paste = await post(page, '/api/threads', {
    title: 'Two thousand lines',
    content,
    language: 'typescript',
  });

  await page.goto(`/thread/${paste.id}#L1500-L1502`);
  const line = (n: number) => page.locator(`[data-line="${n}"]`);
  await expect(line(1500)).toBeInViewport();
  for (const n of [1500, 1501, 1502]) await expect(line(n)).toHaveClass(/cv-line--selected/);
  await expect(line(1499)).not.toHaveClass(/cv-line--selected/);
  // Only a window of the lines is in the page.
  expect(await page.locator('[data-line]').count()).toBeLessThan(300);

  // On a phone, what arrives after the page is drawn (the watch bar, the readers count) moves nothing.
  await page.setViewportSize({ width: 412, height: 823 });
  await page.addInitScript(() => {
    const shifts = ((window as unknown as { shifts: number[] }).shifts = [] as number[]);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number }[]) shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`/thread/${paste.id}`);
  await expect(page.getByTestId('presence-count')).toBeVisible();
  await expect(page.locator('.forum-watch-bar:not(.tp-reserved)')).toBeVisible();
  const shifted = await page.evaluate(() =>
    (window as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0),
  );
  expect(shifted).toBeLessThan(0.05);
});
