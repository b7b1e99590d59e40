// Termpaste itself under the benchmark: started from its build on a free port, its memory, its members.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerUsers } from '../harness/user.mjs';
import { root } from '../harness/paths.mjs';
import { freePort } from '../harness/wait.mjs';
import { ensureDir, label, MEMBERS, options, resultsDir } from './settings.mjs';

/** Termpaste as `npm start` runs it (backend/dist/main.js after the build), on a free port. */
export async function startApp(database, pastes) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  ensureDir(resultsDir);
  const logFile = join(resultsDir, `app-${label(pastes)}.log`);
  const out = openSync(logFile, 'w');
  const env = { ...process.env, ...database.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url };
  env.RATE_LIMITS = 'off'; // the benchmark is one client address sending thousands of writes
  // …from a few members, all alike: the spam signals (which still run) would hold the copies.
  Object.assign(env, { MODERATION_NEW_MEMBER_POSTS: '0', MODERATION_DUPLICATE_ACCOUNTS: '1000' });
  env.LOG_LEVEL = 'warn';
  // The members ramp reads the event-loop delay from the app's metrics, on a port of their own.
  const metricsPort = await freePort();
  env.METRICS_LISTEN = `127.0.0.1:${metricsPort}`;
  if (!database.env.DATABASE_URL) delete env.DATABASE_URL;
  // `--cpu-prof`: the app writes a V8 CPU profile (open it in Chromium's DevTools) as it stops.
  const profile = options['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}`] : [];
  const child = spawn(process.execPath, [...profile, join(root, 'backend/dist/main.js')], {
    cwd: root,
    env,
    stdio: ['ignore', out, out],
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 15 * 60_000; // pending migrations on a million rows take a while
  for (;;) {
    if (exited) throw new Error(`Termpaste exited during start-up; see ${logFile}`);
    if (Date.now() > deadline) throw new Error(`Termpaste did not get ready; see ${logFile}`);
    const ready = await fetch(`${url}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await sleep(250);
  }
  return {
    url,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    pid: child.pid,
    logFile,
    get exited() {
      return exited;
    },
    async stop() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      // Not ref'd: once the app is gone, a pending 30 s timer held the finished bench open for 30 s.
      const patience = sleep(30_000, false, { ref: false });
      if (!(await Promise.race([gone.then(() => true), patience]))) child.kill('SIGKILL');
    },
  };
}

/**
 * Lets the disk catch up before measuring: the fresh copy of the database and the migrations the app just
 * ran left dirty pages that PostgreSQL's checkpointer and the kernel would otherwise write out during the
 * measurements (at 1 M pastes, gigabytes). CHECKPOINT needs a superuser: without one, only the kernel's.
 */
export async function settle(sql) {
  await sql.query('CHECKPOINT').catch(() => undefined);
  spawnSync('sync');
}

export function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
  } catch {
    return NaN;
  }
}

/**
 * Registers MEMBERS members through the API, each verified with the link the app mailed (read from the
 * outbox folder of DATA_DIR, emptied first), and keeps each one's session cookie.
 */
export async function signInMembers(app, dataDir) {
  const outbox = join(dataDir, 'outbox');
  rmSync(outbox, { recursive: true, force: true });
  const readMails = () =>
    existsSync(outbox) ? readdirSync(outbox).map((file) => readFileSync(join(outbox, file), 'utf8')) : [];
  const members = await registerUsers(app.url, readMails, MEMBERS, { parallel: 4, tag: 'bench' });
  return { cookies: members.map((m) => m.cookie), ids: members.map((m) => m.id) };
}
