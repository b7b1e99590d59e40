// Lighthouse on Termpaste's pages in Debian's Chromium: the mobile profile with simulated throttling
// (Lighthouse's default), signed out and signed in, on the landing page, home, the paste with 200
// replies and a 2,000-line code paste. A visitor is sent to the landing page or the 404 page on the
// members' paths (the product's routing), so the visitor's first page is what these rows measure there.
// Scores (performance, accessibility, best practices) and FCP, LCP, TBT, CLS for the bench table.
//
//   npm run bench -- --only lighthouse --sizes 10000 --skip-build
import { existsSync } from 'node:fs';
import { log } from './settings.mjs';

/** The goals of a row: scores out of 100, LCP of a visitor's first page in ms. */
export const LIGHTHOUSE_GOALS = { performance: 95, accessibility: 100, bestPractices: 100, lcpMs: 1500 };

/** A 2,000-line code paste (the seed's code pastes are a few KB): a function every four lines. */
export const codeLines = (lines = 2000) =>
  Array.from({ length: lines }, (_, i) =>
    i % 4 === 0 ? `function step${i}(input) {  // line ${i + 1}` : `  return input * ${i} + 'v${i}';`,
  ).join('\n');

/** Posts the 2,000-line paste as the member of `cookie`; its id. */
async function seedCodePaste(app, cookie) {
  const res = await fetch(`${app.url}/api/threads`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: app.url, Cookie: cookie },
    body: JSON.stringify({
      title: 'bench: 2,000 lines of javascript',
      content: codeLines(),
      language: 'javascript',
    }),
  });
  if (res.status !== 201) throw new Error(`code paste: ${res.status} ${await res.text()}`);
  return (await res.json()).id;
}

/** One Lighthouse run's figures: scores out of 100, times in ms. */
function figures(lhr) {
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const ms = (id) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcpMs: ms('first-contentful-paint'),
    lcpMs: ms('largest-contentful-paint'),
    tbtMs: ms('total-blocking-time'),
    cls: +(lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3),
    // What the LCP was, and the longest-waiting requests behind it, to see where the time goes.
    lcpElement:
      lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet,
    ...(lhr.runtimeError ? { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` } : {}),
    // What failed, for the reader of the JSON: the pass/fail audits that failed.
    failing: Object.values(lhr.audits)
      .filter((audit) => audit.scoreDisplayMode === 'binary' && audit.score === 0)
      .map((audit) => audit.id),
  };
}

/**
 * Lighthouse on each page, signed out and signed in (the member's session cookie sent with every
 * request: Lighthouse clears the browser's cookies before it loads a page). `pages` picks a subset
 * (the smoke measures one).
 */
export async function lighthouseRows(app, { cookie, hotThread, pages = null }) {
  const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromePath)) return { skipped: `no Chromium at ${chromePath}` };
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const codeThread = pages && !pages.includes('code') ? null : await seedCodePaste(app, cookie);
  const all = [
    ['landing', '/'],
    ['home', '/'],
    ['replies200', `/thread/${hotThread}`],
    ['code2000', `/thread/${codeThread}`],
  ];
  const rows = {};
  for (const [name, path] of all) {
    if (pages && !pages.includes(name)) continue;
    // The landing page is the visitor's `/`; home is the member's.
    const states = name === 'landing' ? ['visitor'] : name === 'home' ? ['member'] : ['visitor', 'member'];
    for (const state of states) {
      const headers = state === 'member' ? { Cookie: cookie } : undefined;
      const measure = async () => {
        // A browser of its own for each run: nothing of a member's run reaches a visitor's.
        const chrome = await chromeLauncher.launch({
          chromePath,
          chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'],
        });
        try {
          const { lhr } = await lighthouse(app.url + path, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility', 'best-practices'],
            extraHeaders: headers,
          });
          return lhr;
        } finally {
          chrome.kill();
        }
      };
      let lhr = await measure();
      // Lighthouse's own failure to record the trace (NO_NAVSTART, "run Lighthouse again") measured
      // nothing of the page: one more run, and its error is reported if it fails again.
      if (lhr.runtimeError?.code === 'NO_NAVSTART') lhr = await measure();
      const row = figures(lhr);
      rows[`${name} ${state}`] = { path, ...row };
      if (row.error) log(`  lighthouse ${name} (${state}): ${row.error}`);
      log(
        `  lighthouse ${name} (${state}): perf ${row.performance}, a11y ${row.accessibility}, bp ${row.bestPractices}, FCP ${row.fcpMs} ms, LCP ${row.lcpMs} ms, TBT ${row.tbtMs} ms, CLS ${row.cls}`,
      );
    }
  }
  return rows;
}

/** Whether a row meets its goals (LCP only for a visitor's first page: the landing page). */
function rowOk(name, row) {
  const g = LIGHTHOUSE_GOALS;
  const scores =
    row.performance >= g.performance &&
    row.accessibility >= g.accessibility &&
    row.bestPractices >= g.bestPractices;
  return scores && (!name.endsWith('visitor') || row.lcpMs < g.lcpMs);
}

/** The bench's goal entry for the Lighthouse rows (null: not measured). */
export function lighthouseGoal(report) {
  const rows = report.runs[0]?.lighthouse;
  if (!rows || rows.skipped) return { key: 'lighthouse', ok: null };
  return { key: 'lighthouse', ok: Object.entries(rows).every(([name, row]) => rowOk(name, row)) };
}

/** The table's Lighthouse rows, through report.mjs's `row(measure, a, b, goal, ok)`. */
export function lighthouseTableRows(report, row) {
  const rows = report.runs[0]?.lighthouse;
  if (!rows) return;
  if (rows.skipped) return row('Lighthouse (mobile)', `not measured: ${rows.skipped}`, '–', '', null);
  const g = LIGHTHOUSE_GOALS;
  for (const [name, r] of Object.entries(rows))
    row(
      `Lighthouse mobile: ${name} (\`${r.path}\`)`,
      `perf ${r.performance} · a11y ${r.accessibility} · bp ${r.bestPractices} · FCP ${r.fcpMs} ms · LCP ${r.lcpMs} ms · TBT ${r.tbtMs} ms · CLS ${r.cls}`,
      '(same build)',
      `perf ≥ ${g.performance}, a11y ${g.accessibility}, bp ${g.bestPractices}${name.endsWith('visitor') ? `, LCP < ${g.lcpMs / 1000} s` : ''}`,
      rowOk(name, r),
    );
}
