// `npm test`: every suite, in the order that fails fastest. Under CI=true a missing Chromium, Redis,
// docker-compose, nginx or PostgreSQL server fails the run; elsewhere the step that needs it is skipped
// with a loud line.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nx } from './nx.mjs';
import { prodTools } from './prod-tools.mjs';

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

async function step(name, run) {
  console.log(`\n=== ${name}`);
  const started = Date.now();
  try {
    await run();
    results.push({ step: name, status: 'passed' });
    console.log(`=== ${name}: passed in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } catch (error) {
    results.push({ step: name, status: 'failed' });
    console.error(`=== ${name}: FAILED (${error.message})`);
  }
}

function sh(command, args, options = {}) {
  const run = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.status ?? run.signal}`);
}

await step('build', () => nx(['run-many', '-t', 'build', '--output-style=static', ...cacheFlags]));
await step('lint', () => sh('npm', ['run', 'lint', '--silent']));
await step('typecheck and unit/API tests', () =>
  nx(['run-many', '-t', 'typecheck', 'test', '--output-style=stream', '--parallel=2', ...cacheFlags]),
);

const compose = which('docker-compose');
if (compose) {
  await step('docker-compose config', () =>
    sh(compose, ['--env-file', '.env.example', '-f', 'docker-compose.yml', 'config', '-q']),
  );
} else if (ci) {
  results.push({ step: 'docker-compose config', status: 'failed' });
  console.error('=== docker-compose is required under CI=true (apt-get install docker-compose)');
} else {
  loudSkip('docker-compose config', 'docker-compose not found (apt-get install docker-compose)');
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(chromium)) {
  await step('end-to-end (Playwright in Chromium)', () =>
    sh(process.execPath, [join(root, 'node_modules/@playwright/test/cli.js'), 'test'], {
      cwd: join(root, 'e2e'),
    }),
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

// The benchmark's smoke (10,000 pastes, 3 s a route, on the build above): fails on errors, lost writes or
// undelivered chat messages, never on speed (these machines are shared and noisy).
await step('benchmark smoke (npm run bench -- --smoke)', () =>
  sh(process.execPath, [join(root, 'bench/run.mjs'), '--smoke', '--skip-build']),
);

// The reliability suite (reliability/run.mjs): load, crashes of the API, of the embedded PostgreSQL and
// of Redis, and hostile input, on the build above. Several minutes: CI runs it; elsewhere on request.
if (ci || process.env.RELIABILITY === '1') {
  await step('reliability suite (npm run test:reliability)', () =>
    sh(process.execPath, [join(root, 'reliability/run.mjs'), '--skip-build']),
  );
} else {
  loudSkip('reliability suite', 'runs under CI=true, or with RELIABILITY=1, or as npm run test:reliability');
}

// The production-mode smoke run (scripts/test-prod.mjs) on the build above: two APIs, a worker, nginx,
// PostgreSQL, Redis and an SMTP listener, all real processes on loopback.
const prod = prodTools();
if (prod.missing.length === 0) {
  await step('production-mode smoke run (test:prod)', () =>
    sh(process.execPath, [join(root, 'scripts/test-prod.mjs')]),
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
console.log('\n' + results.map((r) => `  ${r.status.padEnd(8)} ${r.step}`).join('\n'));
console.log(`\nsteps: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
