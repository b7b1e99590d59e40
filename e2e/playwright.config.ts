import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..');

const freePort = () =>
  execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();

// Chosen once in the main process; Playwright's workers inherit the environment.
process.env.E2E_PORT ??= freePort();
// The admin remote is served from an origin of its own (ARCHITECTURE.md: deployed on its own origin).
process.env.E2E_ADMIN_PORT ??= freePort();
while (process.env.E2E_ADMIN_PORT === process.env.E2E_PORT) process.env.E2E_ADMIN_PORT = freePort();
if (!process.env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(join(tmpdir(), 'termpaste-e2e-'));
  process.env.E2E_DATA_DIR = dataDir;
  // As root, PostgreSQL runs as the `postgres` user, which must be able to enter the data folder.
  chmodSync(dataDir, 0o755);
  // Removed when the run ends: after the web server (and its PostgreSQL) has stopped, which a
  // globalTeardown would not wait for.
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}

const port = process.env.E2E_PORT;
export const baseURL = `http://127.0.0.1:${port}`;
/** The second origin the admin remote's dist/ is served from (as deploy/nginx/admin.conf would). */
export const adminOrigin = `http://127.0.0.1:${process.env.E2E_ADMIN_PORT}`;

export default defineConfig({
  testDir: './tests',
  outputDir: './output/test-results',
  fullyParallel: true,
  workers: 2,
  // Under CI a failed test runs once more: a test that fails twice fails the run; one that passed on its
  // retry is listed as flaky at the end of `npm test` (scripts/test.mjs), with its first error, to be fixed.
  retries: process.env.CI === 'true' ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // The JSON report is what `npm test` reads to repeat each failed test and its error at the end of its output.
  reporter: [['list'], ['json', { outputFile: './output/results.json' }]],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      // `npm start` as a newcomer runs it, on a free port with a throwaway DATA_DIR, with sign-in providers:
      // the launcher starts the test OpenID Connect provider and the GitHub stand-in on free loopback ports
      // (callbacks under PUBLIC_URL), sets OIDC_PROVIDERS and GITHUB_* for the backend, then does what
      // `npm start` does in its own process, so they are up before the issuer is discovered and stop with it.
      command: 'node e2e/support/sso-start.mjs',
      cwd: repoRoot,
      url: `${baseURL}/api/health`,
      timeout: 300_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGINT', timeout: 15_000 },
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: port,
        HOST: '127.0.0.1',
        DATA_DIR: process.env.E2E_DATA_DIR,
        PUBLIC_URL: baseURL,
        OWNER_EMAIL: 'owner@e2e.termpaste.test',
        // Every test signs in from 127.0.0.1; the limits themselves are covered by the API tests.
        RATE_LIMITS: 'off',
        // Nor are the tests' members, fresh accounts posting alike texts full of links, held or refused by
        // the spam signals and new members' link cap (the API tests cover them).
        MODERATION_NEW_MEMBER_POSTS: '0',
        MODERATION_DUPLICATE_ACCOUNTS: '1000',
        MODERATION_BURST_POSTS: '10000',
        // Expiry choices pass 60 times faster (`10m`: 10 seconds), so a paste can expire within a test.
        EXPIRY_TIME_SCALE: '60',
        // A notification is mailed as soon as its member is away (no socket), looked for every second.
        MAIL_AWAY_MINUTES: '0',
        MAIL_SWEEP_SECONDS: '1',
        // The shell loads the admin remote from the second origin below; the remote's own calls run
        // inside the shell's page (same origin), ALLOWED_ORIGINS only trusts that origin as a deployment would.
        REMOTE_URLS: JSON.stringify({ admin: `${adminOrigin}/remoteEntry.js` }),
        ALLOWED_ORIGINS: adminOrigin,
      },
    },
    {
      // Listed second, so it starts once `npm start` has built everything and serves; it also waits for
      // frontends/admin/dist/remoteEntry.js itself, and reads files per request (a rebuild is picked up).
      command: [
        'node e2e/support/static-server.mjs --root frontends/admin/dist',
        `--port ${process.env.E2E_ADMIN_PORT} --host 127.0.0.1 --allow-origin ${baseURL}`,
      ].join(' '),
      cwd: repoRoot,
      url: `${adminOrigin}/remoteEntry.js`,
      timeout: 300_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
});
