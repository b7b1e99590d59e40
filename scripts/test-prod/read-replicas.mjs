// A real streaming standby (Debian's pg_basebackup -R) as the DATABASE_READ_URL of two more APIs: a member
// reads their own write at once while the standby's replay is paused, a visitor once it resumes; past the
// lag bound reads move to the primary; the standby stopped under load costs no error answer, and takes
// reads again once restarted.
import { execFile } from 'node:child_process';
import { chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { backendRequire, root } from '../../harness/paths.mjs';
import { DB_PASSWORD } from '../../harness/postgres.mjs';
import { Proc, startedWhile, systemUser } from '../../harness/proc.mjs';
import { assert, freePort, waitFor } from '../../harness/wait.mjs';
import { METRICS_TOKEN } from './context.mjs';

const pg = backendRequire('pg');
const execFileAsync = promisify(execFile);
const isRoot = process.getuid?.() === 0;
/** Short, so that the bound is passed within the step: production's default is 2 s. */
const MAX_LAG_MS = 1000;
const CHECK_MS = 100;

function startStandby(tools, dir, port, logDir, user) {
  const args = ['-D', join(dir, 'data'), '-p', String(port), '-c', 'listen_addresses=127.0.0.1'];
  args.push('-c', `unix_socket_directories=${dir}`, '-c', 'fsync=off', '-c', 'full_page_writes=off');
  return new Proc('postgres-standby', join(tools.postgresBin, 'postgres'), args, {
    env: { PATH: process.env.PATH, LANG: 'C' },
    logDir,
    ...user,
  });
}

/** A client of the standby once it accepts connections (as a hot standby: consistent, in recovery). */
async function standbyClient(url, proc) {
  return startedWhile(
    proc,
    'starting',
    waitFor(
      'the standby to accept connections',
      async () => {
        const client = new pg.Client({ connectionString: url });
        client.on('error', () => undefined);
        try {
          await client.connect();
          const { rows } = await client.query('SELECT pg_is_in_recovery() AS standby');
          assert(rows[0].standby, 'the standby is not in recovery');
          return client;
        } catch (error) {
          await client.end().catch(() => undefined);
          if (error.name === 'CheckFailed') throw error;
          return false;
        }
      },
      30_000,
      100,
    ),
  );
}

async function startApi(env, n, { tmp, logDir }, standbyUrl) {
  const port = await freePort();
  const proc = new Proc(`api-replica-${n}`, process.execPath, [join(root, 'backend/dist/main.js')], {
    env: {
      ...env.backendEnv,
      PORT: String(port),
      DATA_DIR: join(tmp, `api-replica-${n}`),
      PROCESS_JOBS: 'off',
      RATE_LIMITS: 'off',
      DATABASE_READ_URL: standbyUrl,
      DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
      DATABASE_READ_CHECK_MS: String(CHECK_MS),
    },
    logDir,
  });
  const url = `http://127.0.0.1:${port}`;
  await startedWhile(
    proc,
    'starting',
    waitFor(`api-replica-${n}'s /api/ready`, async () => (await fetch(`${url}/api/ready`)).ok, 60_000, 100),
  );
  return { proc, url };
}

async function scrape(api) {
  const res = await fetch(`${api}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  return res.text();
}

/** The state the API gives its replica (`termpaste_db_read_replica_state{…,state="up"} 1`). */
async function replicaState(api) {
  return /termpaste_db_read_replica_state\{replica="[^"]+",state="(\w+)"\} 1\n/.exec(await scrape(api))?.[1];
}

async function replicaReads(api) {
  return Number(/termpaste_db_reads_total\{target="replica"\} (\d+)/.exec(await scrape(api))?.[1] ?? 0);
}

/** Pauses the standby's replay, and waits until it is paused (a request takes effect a moment later). */
async function pauseReplay(admin) {
  await admin.query('SELECT pg_wal_replay_pause()');
  await waitFor(
    'replay to pause',
    async () => {
      const { rows } = await admin.query('SELECT pg_get_wal_replay_pause_state() AS state');
      return rows[0].state === 'paused';
    },
    5000,
    10,
  );
}

const allIn = (apis, state) => async () =>
  (await Promise.all(apis.map((api) => replicaState(api)))).every((seen) => seen === state);

/** Titles on a tag's page as a visitor sees it through `api` (404: no such tag there). */
async function visitorTag(api, tag) {
  const res = await fetch(`${api}/api/tags/${tag}`);
  if (res.status === 404) return [];
  assert(res.status === 200, `GET /api/tags/${tag} answered ${res.status}`);
  return (await res.json()).threads.map((card) => card.title);
}

/**
 * Makes the standby (pg_basebackup -R of the run's PostgreSQL) and starts two APIs reading from it, at
 * once: they find it down, and take it up once it answers. What it started is in the answer.
 */
async function startReplicaStack(env, { tools, tmp, logDir }) {
  const stack = { apis: [], standby: undefined, admin: undefined };
  stack.dir = join(tmp, 'standby');
  mkdirSync(stack.dir, { mode: 0o700 });
  stack.user = isRoot ? systemUser('postgres') : {};
  if (isRoot) chownSync(stack.dir, stack.user.uid, stack.user.gid);
  stack.port = await freePort();
  stack.url = `postgres://termpaste:${DB_PASSWORD}@127.0.0.1:${stack.port}/termpaste`;
  const starting = Promise.all([1, 2].map((n) => startApi(env, n, { tmp, logDir }, stack.url)));
  starting.then((apis) => stack.apis.push(...apis)).catch(() => undefined);
  stack.stop = async () => {
    await stack.admin?.end().catch(() => undefined);
    for (const api of await starting.catch(() => [])) await api.proc.stop('SIGTERM', 10_000);
    await stack.standby?.stop('SIGINT', 10_000);
  };
  const primary = `host=127.0.0.1 port=${env.postgres.port} user=termpaste password=${DB_PASSWORD}`;
  // --no-sync: a throwaway copy, as the primary runs with fsync off.
  const args = [
    '-D',
    join(stack.dir, 'data'),
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
    '--no-sync',
    '-d',
    primary,
  ];
  const backup = await execFileAsync(join(tools.postgresBin, 'pg_basebackup'), args, {
    ...(isRoot ? { uid: stack.user.uid, gid: stack.user.gid } : {}),
  }).catch((error) => error);
  if (backup instanceof Error) throw new Error(`pg_basebackup failed: ${backup.stderr || backup.message}`);
  stack.standby = startStandby(tools, stack.dir, stack.port, logDir, stack.user);
  stack.admin = await standbyClient(stack.url, stack.standby);
  await starting;
  return stack;
}

/**
 * Starts the standby and its APIs in the background (their start-up overlaps the steps that wait, such
 * as the worker's kill); readReplicas awaits them.
 */
export const readReplicasStart = {
  name: 'start a pg_basebackup standby of PostgreSQL and two APIs reading from it, in the background',
  async run(env, context) {
    env.replicaStack = startReplicaStack(env, context);
    // Failures are readReplicas' to report; the run's clean-up stops whatever was started.
    env.replicaStack.catch(() => undefined);
  },
};

export const readReplicas = {
  name: 'a pg_basebackup standby as DATABASE_READ_URL: read-your-writes while it lags, the lag bound, stopped under load',
  async run(env, { tools, logDir }) {
    assert(env.replicaStack, 'readReplicasStart did not run');
    const stack = await env.replicaStack;
    const { dir, port, user } = stack;
    const standbyUrl = stack.url;
    const apis = stack.apis;
    let { standby, admin } = stack;
    try {
      const [one, two] = apis.map((api) => api.url);
      await waitFor('both APIs to take their replica up', allIn([one, two], 'up'), 10_000, 50);

      // Replay paused: the member's new paste is theirs at once, on either API; not a visitor's yet.
      const member = env.alice; // the owner: no post of hers is held for review
      const tag = `replica${Date.now().toString(36)}`;
      await pauseReplay(admin);
      const posted = await member.request(
        'POST',
        '/api/threads',
        { title: 'Read your writes', content: `x ${tag}\n`, tags: [tag] },
        one,
      );
      assert(posted.status === 201, `posting answered ${posted.status}: ${posted.text.slice(0, 200)}`);
      const fresh = posted.headers.getSetCookie().find((cookie) => cookie.startsWith('termpaste.fresh='));
      assert(fresh, 'the write set no fresh cookie');
      const cookie = { Cookie: `${member.cookie}; ${fresh.split(';')[0]}` };
      const own = await member.request('GET', `/api/tags/${tag}`, undefined, two, cookie);
      assert(
        own.status === 200 && own.json.threads[0]?.title === 'Read your writes',
        `the author's own read on api #2: ${own.status} ${own.text.slice(0, 200)}`,
      );
      assert(
        (await visitorTag(one, tag)).length === 0,
        'a visitor read the paused standby, yet saw the paste',
      );
      // Home was made stale by the write: its miss loads from the primary, never keeps the standby's page.
      const home = await (await fetch(`${two}/api/threads/recent`)).json();
      assert(
        home.threads.some((card) => card.title === 'Read your writes'),
        `home's miss came from the paused standby: ${JSON.stringify(home).slice(0, 300)} ${await scrape(two)}`,
      );
      await admin.query('SELECT pg_wal_replay_resume()');
      await waitFor(
        'a visitor to see the paste once replay resumed',
        async () => (await visitorTag(one, tag)).length === 1,
        5000,
        50,
      );

      // Paused past the bound: the APIs stop reading it; a visitor reads the primary.
      await pauseReplay(admin);
      const later = `${tag}b`;
      const second = await member.request(
        'POST',
        '/api/threads',
        { title: 'Past the bound', content: `y ${later}\n`, tags: [later] },
        one,
      );
      assert(second.status === 201, `posting answered ${second.status}: ${second.text.slice(0, 200)}`);
      await waitFor('both APIs to find the replica lagging', allIn([one, two], 'lagging'), 5000, 50);
      assert(
        (await visitorTag(two, later)).length === 1,
        'past the lag bound a visitor still read the standby',
      );
      await admin.query('SELECT pg_wal_replay_resume()');
      await waitFor('the replica up again once it caught up', allIn([one, two], 'up'), 5000, 50);

      // Stopped under a small load of visitor reads: not one error answer; reads go on, on the primary.
      const answers = { count: 0, failed: [] };
      let loading = true;
      const load = async (api) => {
        for (let i = 0; loading; i++) {
          const path = i % 2 ? `/api/tags/${tag}` : '/api/tags';
          const res = await fetch(`${api}${path}`).catch((error) => ({ status: error.message }));
          answers.count++;
          if (res.status !== 200) answers.failed.push(`${path}: ${res.status}`);
          await res.arrayBuffer?.();
        }
      };
      const loads = [one, two, one, two].map(load);
      try {
        await waitFor('replica reads under load', async () => (await replicaReads(one)) > 0, 5000, 50);
        admin.on('error', () => undefined);
        await standby.stop('SIGINT', 10_000);
        await waitFor('both APIs to find the replica down', allIn([one, two], 'down'), 5000, 50);
        const onPrimary = answers.count;
        await waitFor('reads to go on without it', () => answers.count > onPrimary + 20, 5000, 20);
        standby = startStandby(tools, dir, port, logDir, user);
        await admin.end().catch(() => undefined);
        admin = await standbyClient(standbyUrl, standby);
        await waitFor('both APIs to take the restarted replica up', allIn([one, two], 'up'), 10_000, 50);
        const before = await replicaReads(one);
        await waitFor(
          'reads on the replica again',
          async () => (await replicaReads(one)) > before + 5,
          5000,
          50,
        );
      } finally {
        loading = false;
        await Promise.all(loads);
      }
      assert(
        answers.failed.length === 0,
        `error answers under load: ${answers.failed.slice(0, 5).join(', ')}`,
      );
      return `standby on :${port}; ${answers.count} reads under load, none failed`;
    } finally {
      Object.assign(stack, { standby, admin });
      await stack.stop();
    }
  },
};
