import { expect, test } from './test.js';
import { baseURL, screenshotPath, signUp } from './support.js';

const TAGLINE = 'Share your pastes with the underground.';

const SIZES = [
  ['desktop', 1280, 800],
  ['phone', 390, 800],
] as const;

test("a visitor's landing page is in the HTML, before any script runs", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const [label, width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Termpaste' })).toBeAttached();
    await expect(page.getByRole('link', { name: '[ ACCESS TERMINAL ]' })).toBeVisible();
    await expect(page.locator('#tp-paint .shell-landing__window')).toBeVisible();
    await page.screenshot({ path: screenshotPath(`first-paint-${label}-no-js`), fullPage: true });
  }
  // Typed later by the app; the rest of the line holds its room unseen meanwhile.
  await expect(page.locator('#tp-paint .shell-landing__untyped')).toBeHidden();
  // A visitor who asked for less motion gets no typing: the painted page shows the whole line already.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await expect(page.locator('#tp-paint .shell-landing__untyped')).toBeVisible();
  await expect(page.locator('#tp-paint .shell-landing__untyped')).toHaveText(TAGLINE);
});

for (const [label, width, height] of SIZES) {
  test(`the app takes the painted landing page over without a shift, and it works (${label})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    // Layout shifts from the navigation on, and where the window sat while painted by the server.
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number; paintedBox?: DOMRect; takenOverBox?: DOMRect };
      w.shifts = 0;
      // Where the app's own window is as the painted one goes (the tagline, typed later, moves it).
      let seen = false;
      new MutationObserver((_, observer) => {
        if (document.getElementById('tp-paint')) seen = true;
        if (!seen || document.getElementById('tp-paint')) return;
        w.takenOverBox = document.querySelector('#root .shell-landing__window')?.getBoundingClientRect();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
      // The typing cursor moves as it types, by design: every other shift counts.
      type Shift = { value: number; hadRecentInput: boolean; sources: { node?: Node }[] };
      const cursorOnly = (entry: Shift) => entry.sources.every((source) => source.node?.textContent === '█');
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as Shift[])
          if (!entry.hadRecentInput && !cursorOnly(entry)) w.shifts += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
      document.addEventListener('DOMContentLoaded', () => {
        w.paintedBox = document.querySelector('#tp-paint .shell-landing__window')?.getBoundingClientRect();
      });
    });
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));

    await page.goto('/');
    // The app's own page replaces the painted one, then types the tagline as always.
    await expect(page.locator('#tp-paint')).toHaveCount(0);
    await expect(page.locator('#root .shell-landing__window')).toBeVisible();
    // On a phone the tagline wraps: typed to its end, it must not have moved the page (landing.spec.ts
    // checks the typing itself).
    if (label === 'phone') await expect(page.getByTestId('tagline')).toHaveText(TAGLINE, { timeout: 10_000 });
    const { shifts, painted, now } = await page.evaluate(() => {
      const w = window as unknown as { shifts: number; paintedBox?: DOMRect; takenOverBox?: DOMRect };
      return { shifts: w.shifts, painted: w.paintedBox?.toJSON(), now: w.takenOverBox?.toJSON() };
    });
    expect(painted).toBeDefined();
    expect(now).toEqual(painted);
    expect(shifts).toBeLessThan(0.001);
    // remotes.json came in the page; nothing else was asked of the server before the page showed.
    expect(asked).not.toContain('/remotes.json');
    await page.screenshot({ path: screenshotPath(`first-paint-${label}-app`), fullPage: true });

    await page.getByRole('link', { name: /access terminal/i }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Username or email')).toBeVisible();
    // Back to the landing page through the app, not the server: its own page, no painted copy.
    await page.goBack();
    await expect(page.locator('#root .shell-landing__window')).toBeVisible();
    await expect(page.locator('#tp-paint')).toHaveCount(0);
  });
}

test("a member's home and paste are painted by the server, escaped, and the app takes over without a shift", async ({
  page,
}) => {
  await signUp(page);
  const hostile = '<img src=x onerror="window.__owned=1"></script><script>window.__owned=2</script>';
  const created = await page.request.post('/api/threads', {
    data: { title: `Painted ${hostile}`, content: `# Heading\n\nSome **bold** text ${hostile}\n\nMore.` },
    headers: { Origin: baseURL() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  // Before any script: the content is in the HTML, as text, theirs only (never kept by a cache in front).
  const context = await page.context().browser()!.newContext({ javaScriptEnabled: false });
  await context.addCookies(await page.context().cookies());
  const still = await context.newPage();
  const home = await still.goto('/');
  expect(home!.headers()['cache-control']).toBe('private, no-cache');
  await expect(still.locator('#tp-paint').getByRole('heading', { name: 'RECENT PASTES' })).toBeVisible();
  await expect(still.locator('#tp-paint').getByRole('link', { name: `Painted ${hostile}` })).toBeVisible();
  const pasteResponse = await still.goto(`/thread/${id}`);
  expect(pasteResponse!.headers()['cache-control']).toBe('private, no-cache');
  const html = await pasteResponse!.text();
  expect(html).not.toContain('<img src=x');
  expect(html).not.toContain('<script>window.__owned');
  await expect(still.locator('#tp-paint h1')).toHaveText(`Painted ${hostile}`);
  await expect(still.locator('#tp-paint').getByText(`Some **bold** text ${hostile}`)).toBeVisible();
  await expect(still.locator('#tp-paint img')).toHaveCount(0);
  await still.setViewportSize({ width: 390, height: 800 });
  await still.screenshot({ path: screenshotPath('first-paint-member-no-js') });
  await context.close();

  // With scripts: the app's own screen replaces the painted one, nothing moves, nothing ran.
  await page.addInitScript(() => {
    const w = window as unknown as { shifts: number };
    w.shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
        if (!entry.hadRecentInput) w.shifts += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  for (const path of ['/', `/thread/${id}`]) {
    await page.goto(path);
    await expect(page.locator('#tp-paint')).toHaveCount(0);
    await expect(page.locator('#root main').first()).toBeVisible();
    const { shifts, owned } = await page.evaluate(() => {
      const w = window as unknown as { shifts: number; __owned?: number };
      return { shifts: w.shifts, owned: w.__owned };
    });
    expect(owned).toBeUndefined();
    expect(shifts).toBeLessThan(0.05);
  }
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Painted ${hostile}`);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: screenshotPath('first-paint-member-app') });
  await expect(page.locator('.shell-landing')).toHaveCount(0);
});
