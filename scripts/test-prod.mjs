// `npm run test:prod`: the production-mode smoke run (docs/operations.md, "Production"). Real processes on loopback,
// from Debian's packages and this checkout's build:
//
//   PostgreSQL (initdb + postgres in a temporary folder)   redis-server (append-only file, noeviction)
//   an SMTP listener (the npm package smtp-server)      one worker   node backend/dist/main.worker.js
//   two API instances  node backend/dist/main.js  (PROCESS_JOBS=off: they only enqueue)
//   nginx with deploy/nginx/web.conf.template (the web service) and deploy/nginx/admin.conf (the admin
//   origin), their placeholders filled in here as the nginx image fills them from the environment.
//
// Every request goes through nginx. Besides the production server (both APIs behind one upstream), the
// generated nginx.conf repeats that same server block on two more ports, each pinned to one API, so a step
// that names an API (the first or the second) knows which instance it talks to.
//
// Needs `npx nx run-many -t build` first (backend and frontends). Exits 0 when every check passed.
// TEST_PROD_KEEP=1 keeps the temporary folder (logs, nginx.conf) for a look afterwards.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { root } from '../harness/paths.mjs';
import { processes, stopStarting } from '../harness/proc.mjs';
import { prodTools } from '../harness/prod-tools.mjs';
import { adminCli } from './test-prod/admin-cli.mjs';
import { adminOnly } from './test-prod/admin-only.mjs';
import { backupRestore } from './test-prod/backup.mjs';
import { chatAcrossApis } from './test-prod/chat.mjs';
import { metrics } from './test-prod/metrics.mjs';
import { anyFailed, check, printResults } from './test-prod/checks.mjs';
import { elapsed, log } from './test-prod/context.mjs';
import { edgeCache } from './test-prod/edge-cache.mjs';
import { migrationsOnce } from './test-prod/migrations.mjs';
import { usersAndPaste } from './test-prod/users.mjs';
import { passwordReset } from './test-prod/password-reset.mjs';
import { rateLimits } from './test-prod/rate-limits.mjs';
import { readReplicas, readReplicasStart } from './test-prod/read-replicas.mjs';
import { replyViaWorker } from './test-prod/reply-via-worker.mjs';
import { health, stillReady, webAssets } from './test-prod/serving.mjs';
import { startStack } from './test-prod/stack.mjs';
import { tracing } from './test-prod/tracing.mjs';
import { workerKilledMidJob } from './test-prod/worker-kill.mjs';
import { calledBack } from './test-prod/called-back.mjs';

/** In order: each step finds what the ones before it started and made (members, the paste) in `env`. */
const STEPS = [
  startStack,
  migrationsOnce,
  health,
  webAssets,
  usersAndPaste,
  replyViaWorker,
  chatAcrossApis,
  passwordReset,
  calledBack,
  metrics,
  tracing,
  adminCli,
  readReplicasStart,
  workerKilledMidJob,
  adminOnly,
  rateLimits,
  edgeCache,
  backupRestore,
  readReplicas,
  stillReady,
];

const tmpRoots = [];
let cleaningUp;

async function cleanup() {
  stopStarting();
  cleaningUp ??= (async () => {
    // The app processes first (they close their connections), then nginx, Redis and PostgreSQL.
    const order = ['worker', 'api1', 'api2', 'nginx', 'redis', 'postgres'];
    const byOrder = [...processes].sort(
      (a, b) => order.indexOf(a.name.replace(/-\d+$/, '')) - order.indexOf(b.name.replace(/-\d+$/, '')),
    );
    for (const proc of byOrder) {
      // PostgreSQL: SIGINT is its fast shutdown; nginx: SIGQUIT is its graceful one.
      const signal = proc.name === 'postgres' ? 'SIGINT' : proc.name === 'nginx' ? 'SIGQUIT' : 'SIGTERM';
      await proc.stop(signal, 10_000).catch(() => undefined);
    }
    for (const tmp of tmpRoots) {
      if (process.env.TEST_PROD_KEEP === '1') log(`kept ${tmp}`);
      else rmSync(tmp, { recursive: true, force: true });
    }
  })();
  return cleaningUp;
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(signal, () => {
    log(`${signal}: stopping everything`);
    cleanup().finally(() => process.exit(code));
  });
}

async function main() {
  const tools = prodTools();
  if (tools.missing.length > 0) {
    console.error(`test:prod needs ${tools.missing.join('; ')}`);
    return 1;
  }
  for (const file of ['backend/dist/main.js', 'backend/dist/main.worker.js']) {
    if (!existsSync(join(root, file))) {
      console.error(`test:prod needs ${file}: run \`npx nx run-many -t build\` first`);
      return 1;
    }
  }

  const tmp = mkdtempSync(join(os.tmpdir(), 'termpaste-prod-'));
  tmpRoots.push(tmp);
  // nginx's workers and PostgreSQL run as other users when we are root: they must enter the folder.
  chmodSync(tmp, 0o755);
  const logDir = join(tmp, 'logs');
  mkdirSync(logDir);
  log(`temporary folder ${tmp}`);

  const env = { sockets: [] };
  try {
    for (const step of STEPS) await check(step.name, () => step.run(env, { tools, tmp, logDir }));
  } finally {
    for (const socket of env.sockets) socket.close();
    env.redisClient?.disconnect();
    await env.db?.end().catch(() => undefined);
    if (anyFailed()) {
      for (const proc of processes)
        console.log(`\n--- last lines of ${proc.name} (${proc.logFile})\n${proc.tail(40)}`);
    }
    await cleanup();
    await env.smtp?.close();
  }

  console.log('\nProduction-mode smoke run (two APIs, a worker, nginx, PostgreSQL, Redis, SMTP):');
  printResults();
  console.log(`\ntest:prod ${anyFailed() ? 'FAILED' : 'PASSED'} in ${elapsed()}`);
  return anyFailed() ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  async (error) => {
    console.error(error);
    await cleanup();
    process.exit(1);
  },
);
