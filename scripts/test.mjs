// `npm test`: every suite, in the order that fails fastest. Under CI=true a missing Chromium, Redis,
// docker-compose, kubectl, nginx or PostgreSQL server fails the run; elsewhere the step that needs it is
// skipped with a loud line.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nx } from '../harness/nx.mjs';
import { prodTools } from '../harness/prod-tools.mjs';
import { run } from '../harness/run.mjs';
import { ansi, e2eFailures } from './lib/e2e-failures.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ci = process.env.CI === 'true';
const results = [];
// CI proves every suite really runs: no results replayed from the Nx cache.
const cacheFlags = ci ? ['--skip-nx-cache'] : [];

function which(name) {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

function loudSkip(step, why) {
  const line = `!!! SKIPPED ${step}: ${why}`;
  console.log(`\n${'!'.repeat(line.length)}\n${line}\n${'!'.repeat(line.length)}\n`);
  results.push({ step, status: 'skipped' });
}

// The last lines a step printed: a failed step's are repeated at the very end, where a reader of a long CI
// log (or of only its tail) looks first.
const TAIL_LINES = 40;

function outputTail() {
  let lines = [''];
  return {
    add(chunk) {
      const parts = chunk.toString('utf8').replace(ansi, '').split(/\r?\n/);
      lines[lines.length - 1] += parts[0];
      lines.push(...parts.slice(1));
      if (lines.length > TAIL_LINES * 4) lines = lines.slice(-TAIL_LINES - 1);
    },
    lines: () => lines.filter((line, i) => i < lines.length - 1 || line !== '').slice(-TAIL_LINES),
  };
}

/**
 * `runStep(output)` runs the step; what the step's processes print is given to `output` too. `summary`, when
 * it gives lines, is printed at the end: for a failed step instead of its output's tail, for a passed one as
 * a note (the e2e tests that passed only on their retry).
 */
async function step(name, runStep, { summary } = {}) {
  console.log(`\n=== ${name}`);
  const started = Date.now();
  const tail = outputTail();
  const took = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  try {
    await runStep(tail.add);
    results.push({ step: name, status: 'passed', took: took(), notes: summary?.() ?? null });
    console.log(`=== ${name}: passed in ${took()}`);
  } catch (error) {
    const lines = summary?.() ?? [`its last ${TAIL_LINES} lines:`, ...tail.lines()];
    results.push({ step: name, status: 'failed', took: took(), why: error.message, summary: lines });
    console.error(`=== ${name}: FAILED (${error.message})`);
  }
}

const sh = (command, args, options = {}, output) => run(command, args, { cwd: root, ...options, output });

const e2eReport = join(root, 'e2e/output/results.json');

await step('build', (output) =>
  nx(['run-many', '-t', 'build', '--output-style=static', ...cacheFlags], { output }),
);
// Lint beside the unit/API tests, whose longest task (the backend's API tests, over 5 minutes) waits on
// PostgreSQL more than it computes: lint's half-minute of CPU fits in it. Their output interleaves.
await Promise.all([
  step('lint', (output) => sh('npm', ['run', 'lint', '--silent'], {}, output)),
  step('typecheck and unit/API tests', (output) =>
    nx(['run-many', '-t', 'typecheck', 'test', '--output-style=stream', '--parallel=2', ...cacheFlags], {
      output,
    }),
  ),
]);

const compose = which('docker-compose');
if (compose) {
  await step('docker-compose config', (output) =>
    sh(compose, ['--env-file', '.env.example', '-f', 'docker-compose.yml', 'config', '-q'], {}, output),
  );
} else if (ci) {
  results.push({ step: 'docker-compose config', status: 'failed' });
  console.error('=== docker-compose is required under CI=true (apt-get install docker-compose)');
} else {
  loudSkip('docker-compose config', 'docker-compose not found (apt-get install docker-compose)');
}

// deploy/k8s: every kustomization rendered by `kubectl kustomize` and each object checked against the
// Kubernetes schemas and the house rules; the checker's own tests first (it must fail on bad manifests).
const kubectl = which('kubectl');
if (kubectl) {
  await step('Kubernetes manifests (kubectl kustomize, schemas)', async (output) => {
    await sh(process.execPath, ['--test', 'scripts/check-k8s.test.mjs'], {}, output);
    await sh(process.execPath, ['scripts/check-k8s.mjs'], {}, output);
  });
} else if (ci) {
  results.push({ step: 'Kubernetes manifests', status: 'failed' });
  console.error('=== kubectl is required under CI=true (apt-get install kubernetes-client)');
} else {
  loudSkip('Kubernetes manifests', 'kubectl not found (apt-get install kubernetes-client)');
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(chromium)) {
  rmSync(e2eReport, { force: true });
  await step(
    'end-to-end (Playwright in Chromium)',
    (output) =>
      sh(
        process.execPath,
        [join(root, 'node_modules/@playwright/test/cli.js'), 'test'],
        { cwd: join(root, 'e2e') },
        output,
      ),
    // Under CI a failed test runs once more (e2e/playwright.config.ts): one that then passed is listed.
    { summary: () => e2eFailures(e2eReport) },
  );
} else if (ci) {
  results.push({ step: 'end-to-end', status: 'failed' });
  console.error(`=== Chromium is required under CI=true: ${chromium} not found (apt-get install chromium)`);
} else {
  loudSkip(
    'end-to-end',
    `Chromium not found at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
}

// The benchmark's smoke (10,000 pastes, 0.5 s a route, on the build above): fails on errors, lost writes or
// undelivered chat messages, never on speed (these machines are shared and noisy).
await step('benchmark smoke (npm run bench -- --smoke)', (output) =>
  sh(process.execPath, [join(root, 'bench/run.mjs'), '--smoke', '--skip-build'], {}, output),
);

// The reliability suite (reliability/run.mjs): load, crashes of the API, of the embedded PostgreSQL and
// of Redis, and hostile input, on the build above. Several minutes: CI runs it; elsewhere on request.
if (ci || process.env.RELIABILITY === '1') {
  await step('reliability suite (npm run test:reliability)', (output) =>
    sh(process.execPath, [join(root, 'reliability/run.mjs'), '--skip-build'], {}, output),
  );
} else {
  loudSkip('reliability suite', 'runs under CI=true, or with RELIABILITY=1, or as npm run test:reliability');
}

// The production-mode smoke run (scripts/test-prod.mjs) on the build above: two APIs, a worker, nginx,
// PostgreSQL, Redis and an SMTP listener, all real processes on loopback.
const prod = prodTools();
if (prod.missing.length === 0) {
  await step('production-mode smoke run (test:prod)', (output) =>
    sh(process.execPath, [join(root, 'scripts/test-prod.mjs')], {}, output),
  );
} else if (ci) {
  results.push({ step: 'production-mode smoke run', status: 'failed' });
  console.error(`=== test:prod is required under CI=true and needs ${prod.missing.join('; ')}`);
} else {
  loudSkip('production-mode smoke run (test:prod)', `missing ${prod.missing.join('; ')}`);
}

const passed = results.filter((r) => r.status === 'passed').length;
const failed = results.filter((r) => r.status === 'failed').length;
const skipped = results.filter((r) => r.status === 'skipped').length;
for (const noted of results.filter((r) => r.status === 'passed' && r.notes)) {
  console.log(`\n--- passed, with notes: ${noted.step}`);
  console.log(noted.notes.map((line) => `  ${line}`).join('\n'));
}
for (const failure of results.filter((r) => r.status === 'failed' && r.summary)) {
  console.log(`\n--- failed: ${failure.step} (${failure.why})`);
  console.log(failure.summary.map((line) => `  ${line}`).join('\n'));
}
console.log(
  '\n' + results.map((r) => `  ${r.status.padEnd(8)} ${r.step}${r.took ? ` (${r.took})` : ''}`).join('\n'),
);
console.log(`\nsteps: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
