// What `npm test` repeats at the end of its output when the end-to-end step fails: from Playwright's JSON
// report (e2e/playwright.config.ts), each failed or flaky test, where it is, and the start of its error.
import { existsSync, readFileSync } from 'node:fs';

// eslint-disable-next-line no-control-regex
export const ansi = /\x1b\[[0-9;]*[A-Za-z]/g;
const ERROR_LINES = 12;

/**
 * The summary's lines; null when there is nothing to list (every test passed the first time) or no report
 * (Playwright did not get as far as writing one).
 */
export function e2eFailures(reportPath) {
  if (!existsSync(reportPath)) return null;
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const lines = [];
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const title = [...titles, spec.title].join(' › ');
        lines.push(`${test.status === 'flaky' ? 'flaky ' : 'FAILED'} ${spec.file}:${spec.line} ${title}`);
        const failed = test.results.find((r) => r.status !== 'passed' && r.status !== 'skipped');
        const error = failed?.error?.message ?? failed?.error?.value ?? failed?.status ?? '';
        const errorLines = error
          .replace(ansi, '')
          .split('\n')
          .filter((line) => line.trim() !== '');
        lines.push(...errorLines.slice(0, ERROR_LINES).map((line) => `    ${line}`));
      }
    }
    // The outermost suite of a spec is its file, whose title is the file name.
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const fileSuite of report.suites ?? []) visit(fileSuite, []);
  for (const error of report.errors ?? []) {
    lines.push(`ERROR ${(error.message ?? '').replace(ansi, '').split('\n')[0]}`);
  }
  if (lines.length === 0) return null;
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats ?? {};
  return [`${expected} passed, ${unexpected} failed, ${flaky} flaky, ${skipped} skipped`, ...lines];
}
