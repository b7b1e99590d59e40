// node --test scripts/lib/e2e-failures.test.mjs (npm run lint runs it): the end-to-end failure summary, read
// from a report Playwright really wrote for a small spec with a failing, a passing and a flaky test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { e2eFailures } from './e2e-failures.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** What e2e/tests/network-report.ts attaches to a failed test whose page waited on a request. */
const SLOW_REQUESTS = [
  '+1.200s GET http://127.0.0.1:3000/static/js/async/u8.js [script]: no end after 10.1 s; sent: yes',
  '    server: +1.198s req 812 on conn 97: no end logged',
].join('\n');

test('each failed or flaky test is named with its file, line, titles and the start of its error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-failures-'));
  try {
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'tests'));
    writeFileSync(
      join(dir, 'playwright.config.mjs'),
      "export default { testDir: './tests', retries: 1, workers: 1, reporter: [['json', { outputFile: './results.json' }]] };\n",
    );
    writeFileSync(
      join(dir, 'tests/a.spec.mjs'),
      [
        `import { test, expect } from '${join(root, 'node_modules/@playwright/test/index.mjs')}';`,
        `const SLOW = ${JSON.stringify(SLOW_REQUESTS)};`,
        "test.describe('group', () => {",
        "  test('fails', async ({}, info) => { await info.attach('slow requests', { body: SLOW }); expect(1, 'one is two').toBe(2); });",
        "  test('passes', () => {});",
        '});',
        "test('flaky', ({}, info) => { if (info.retry === 0) throw new Error('first try only'); });",
        '',
      ].join('\n'),
    );
    const run = spawnSync(
      process.execPath,
      [join(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'playwright.config.mjs'],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(run.status, 1, run.stderr);
    const lines = e2eFailures(join(dir, 'results.json'));
    assert.equal(lines[0], '1 passed, 1 failed, 1 flaky, 0 skipped');
    const failed = lines.indexOf('FAILED a.spec.mjs:4 group › fails');
    assert.notEqual(failed, -1, lines.join('\n'));
    assert.equal(lines[failed + 1], '    Error: one is two');
    // The failed attempt's slow requests follow its error.
    const slow = lines.indexOf(`    ${SLOW_REQUESTS.split('\n')[0]}`);
    assert.ok(slow > failed, lines.join('\n'));
    assert.equal(lines[slow + 1], `    ${SLOW_REQUESTS.split('\n')[1]}`);
    const flaky = lines.indexOf('flaky  a.spec.mjs:7 flaky');
    assert.notEqual(flaky, -1, lines.join('\n'));
    assert.equal(lines[flaky + 1], '    Error: first try only');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no report (Playwright stopped before writing one), or nothing failed or flaky, gives no summary', () => {
  assert.equal(e2eFailures(join(tmpdir(), 'no-such-report.json')), null);
  const dir = mkdtempSync(join(tmpdir(), 'e2e-failures-'));
  try {
    const passed = { status: 'expected', results: [{ status: 'passed' }] };
    const report = {
      suites: [
        { title: 'a.spec.mjs', specs: [{ title: 'passes', file: 'a.spec.mjs', line: 1, tests: [passed] }] },
      ],
      errors: [],
      stats: { expected: 1, unexpected: 0, flaky: 0, skipped: 0 },
    };
    writeFileSync(join(dir, 'results.json'), JSON.stringify(report));
    assert.equal(e2eFailures(join(dir, 'results.json')), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
