// What `npm test` repeats at the end of its output when the end-to-end step fails: from Playwright's JSON
// report (e2e/playwright.config.ts), each failed or flaky test, where it is, the start of its error, and the
// requests its pages waited on (the "slow requests" attachment of e2e/tests/network-report.ts).
import { existsSync, readFileSync } from 'node:fs';

// eslint-disable-next-line no-control-regex
export const ansi = /\x1b\[[0-9;]*[A-Za-z]/g;
const ERROR_LINES = 12;
/** e2e/tests/network-report.ts attaches this to a failed test whose pages waited on requests. */
const SLOW_REQUESTS = 'slow requests';
const SLOW_REQUEST_LINES = 30;

/** A failed attempt's "slow requests" attachment, its lines; none when it has none. */
function slowRequestLines(result) {
  const attachment = result?.attachments?.find((a) => a.name === SLOW_REQUESTS && a.body);
  if (!attachment) return [];
  const lines = Buffer.from(attachment.body, 'base64').toString('utf8').split('\n');
  const shown = lines.slice(0, SLOW_REQUEST_LINES);
  if (lines.length > shown.length) shown.push(`… ${lines.length - shown.length} more lines in the report`);
  return shown;
}

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
        lines.push(...slowRequestLines(failed).map((line) => `    ${line}`));
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
