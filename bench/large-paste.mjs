/* global window, document, MutationObserver */
// Large pastes in Chromium ("never freeze the tab"): a 20,000-line python paste and a 1 MiB
// terminal capture (14,000 coloured lines), each opened in a fresh page of a real Chromium. Measured: when
// the first lines show and when every line is highlighted or coloured (from the navigation's start, the
// app's start and the paste's download included), and the longest main-thread task (PerformanceObserver
// 'longtask') from the first lines on. Goal: no task over LONG_TASK_MS once lines show. A timing, so it
// lives here and not in the end-to-end suite (shared machines are noisy); the e2e tests check the rest
// (a window of lines rendered, highlighting, line links).
import { existsSync } from 'node:fs';

export const LONG_TASK_MS = 150;

const python = () =>
  Array.from({ length: 20_000 }, (_, i) =>
    i % 4 === 0 ? `def f_${i}(x):  # line ${i + 1}` : `    return x * ${i} + "s${i}"`,
  ).join('\n');

const capture = () => {
  const row = '\x1b[01;34mbin\x1b[0m  \x1b[01;32mrun.sh\x1b[0m  \x1b[38;5;208mwarm\x1b[0m  notes.txt';
  return Array.from({ length: 14_000 }, (_, i) => `${i + 1} ${row}`).join('\n');
};

/** Records long tasks and when the first line and the full highlighting appear (before the app runs). */
function watch() {
  window.__longTasks = [];
  window.__marks = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver(() => {
    if (window.__marks.firstLine === undefined && document.querySelector('[data-line="1"]'))
      window.__marks.firstLine = performance.now();
    if (window.__marks.highlighted === undefined && document.querySelector('[data-highlighted="true"]'))
      window.__marks.highlighted = performance.now();
  }).observe(document, { childList: true, subtree: true, attributes: true });
}

async function open(browser, app, cookie, id) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name, value, url: app.url }]);
    const page = await context.newPage();
    await page.addInitScript(watch);
    await page.goto(`${app.url}/thread/${id}`);
    await page.waitForFunction(() => window.__marks.highlighted !== undefined, null, { timeout: 60_000 });
    // A moment for a task still running when the last chunk landed to be reported.
    await page.waitForTimeout(300);
    return await page.evaluate(() => {
      const { firstLine, highlighted } = window.__marks;
      const after = window.__longTasks.filter((task) => task.start + task.duration >= firstLine - 20);
      return {
        firstLinesMs: Math.round(firstLine),
        highlightedMs: Math.round(highlighted),
        longestTaskMs: Math.round(Math.max(0, ...after.map((task) => task.duration))),
        lineElements: document.querySelectorAll('.cv-line').length,
      };
    });
  } finally {
    await context.close();
  }
}

/** Both pastes, made by the member of `cookie` through the API, each opened in Chromium. */
export async function largePastesInChromium(app, cookie) {
  const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) return { skipped: `no Chromium at ${chromiumPath}` };
  const made = {};
  for (const [key, body] of [
    ['python', { title: 'bench: 20,000 lines of python', content: python(), language: 'python' }],
    ['ansi', { title: 'bench: a 1 MiB terminal capture', content: capture() }],
  ]) {
    const res = await fetch(`${app.url}/api/threads`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: app.url, Cookie: cookie },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`large paste ${key}: ${res.status} ${await res.text()}`);
    made[key] = (await res.json()).id;
  }
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    return {
      python: await open(browser, app, cookie, made.python),
      ansi: await open(browser, app, cookie, made.ansi),
    };
  } finally {
    await browser.close();
  }
}
