import { rm } from 'node:fs/promises';
import { Client } from 'pg';
import { CRASH_VARIABLE } from '../src/infra/outbox/crash-point.js';
import { loadConfig } from '../src/config/config.js';
import { freePort } from '../src/infra/free-port.js';
import { createWorker, type RunningWorker } from '../src/worker.module.js';
import { type AppProcess, startAppProcess } from './support/app-process.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { createTestDatabase, type TestDatabase } from './support/postgres.js';
import { describeWithRedis, type RedisHandle, redisCommand, startRedis } from './support/redis.js';
import { TEST_SESSION_SECRET } from './support/test-app.js';
import { makeTempDir } from './support/throwaway-postgres.js';
import { waitFor } from './support/wait-for.js';

/**
 * The outbox against real crashes: the app runs in a child process (support/app-child.ts) that SIGKILLs
 * itself at a fault-injection point (TERMPASTE_TEST_CRASH) and starts again on the same database.
 */

interface Fixture {
  database: TestDatabase;
  sql: Client;
  dataDir: string;
  aliceId: number;
  bobId: number;
  threadId: number;
  children: AppProcess[];
}

async function setUp(): Promise<Fixture> {
  const database = await createTestDatabase();
  const sql = new Client({ connectionString: database.url });
  await sql.connect();
  const { rows: users } = await sql.query<{ id: number }>(
    `INSERT INTO users (username, email, password_hash)
     SELECT u, u || '@example.com', 'not-a-hash' FROM unnest(ARRAY['alice_crash', 'bob_crash']) AS u
     RETURNING id`,
  );
  const { rows: threads } = await sql.query<{ id: number }>(
    "INSERT INTO threads (title, content, author_id) VALUES ('Crash test', 'echo hi', $1) RETURNING id",
    [users[0]!.id],
  );
  return {
    database,
    sql,
    dataDir: await makeTempDir('termpaste-outbox-crash-'),
    aliceId: users[0]!.id,
    bobId: users[1]!.id,
    threadId: threads[0]!.id,
    children: [],
  };
}

async function tearDown(f: Fixture | undefined): Promise<void> {
  if (!f) return;
  for (const child of f.children) await child.stop();
  await f.sql.end();
  await f.database.drop();
  await rm(f.dataDir, { recursive: true, force: true });
}

async function start(f: Fixture, env: Record<string, string> = {}): Promise<AppProcess> {
  const child = await startAppProcess(
    { DATABASE_URL: f.database.url, SESSION_SECRET: TEST_SESSION_SECRET, ...env },
    f.dataDir,
  );
  f.children.push(child);
  return child;
}

async function outboxRows(
  f: Fixture,
): Promise<Array<{ queue: string; name: string; data: unknown; job_id: string }>> {
  const { rows } = await f.sql.query('SELECT queue, name, data, job_id FROM outbox ORDER BY id');
  return rows;
}

async function notificationsOf(
  f: Fixture,
  source: string,
): Promise<Array<{ user_id: number; type: string }>> {
  const { rows } = await f.sql.query('SELECT user_id, type FROM notifications WHERE source = $1', [source]);
  return rows;
}

async function unread(f: Fixture, userId: number): Promise<number | undefined> {
  const { rows } = await f.sql.query<{ unread: number }>(
    'SELECT unread FROM notification_counters WHERE user_id = $1',
    [userId],
  );
  return rows[0]?.unread;
}

async function newestReply(f: Fixture): Promise<number> {
  const { rows } = await f.sql.query<{ id: number }>(
    'SELECT id FROM replies WHERE thread_id = $1 ORDER BY id DESC LIMIT 1',
    [f.threadId],
  );
  return rows[0]!.id;
}

/** Asks `child` for a reply by bob, and waits for the process to die on its crash point. */
async function replyAndDie(f: Fixture, child: AppProcess, content: string): Promise<number> {
  const answer = child.reply(f.bobId, f.threadId, content);
  answer.catch(() => undefined); // whether the answer got out before the kill does not matter
  expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });
  return newestReply(f);
}

/** A test starts the app two or three times. */
const SLOW = 120_000;

describe('outbox: the app killed between a write and its job (in-process queue, as `npm start`)', () => {
  let f: Fixture | undefined;

  beforeAll(async () => {
    f = await setUp();
  }, SLOW);

  afterAll(async () => {
    await tearDown(f);
  }, SLOW);

  it(
    'killed right after the commit: the restarted app sends the job, and the notification is made once',
    async () => {
      const fx = f!;
      const replyId = await replyAndDie(fx, await start(fx, { [CRASH_VARIABLE]: 'committed' }), 'First!');
      // The reply committed with its job; nobody was notified.
      expect(await outboxRows(fx)).toEqual([
        { queue: 'notifications', name: 'reply', data: { replyId }, job_id: `reply-${replyId}` },
      ]);
      expect(await notificationsOf(fx, `reply:${replyId}`)).toEqual([]);

      await start(fx);
      await waitFor('the job left in the outbox to run', async () => (await outboxRows(fx)).length === 0);
      expect(await notificationsOf(fx, `reply:${replyId}`)).toEqual([{ user_id: fx.aliceId, type: 'reply' }]);
      expect(await unread(fx, fx.aliceId)).toBe(1);
    },
    SLOW,
  );

  it(
    'killed after the job ran, before its row was deleted: run again after the restart, nothing made twice',
    async () => {
      const fx = f!;
      for (const child of fx.children.splice(0)) await child.stop();
      const replyId = await replyAndDie(fx, await start(fx, { [CRASH_VARIABLE]: 'relayed' }), 'Second!');
      // The job ran (its notification is there) and its row stayed.
      expect(await notificationsOf(fx, `reply:${replyId}`)).toEqual([{ user_id: fx.aliceId, type: 'reply' }]);
      expect(await outboxRows(fx)).toEqual([
        { queue: 'notifications', name: 'reply', data: { replyId }, job_id: `reply-${replyId}` },
      ]);

      const restarted = await start(fx);
      await waitFor('the job to run again', async () => (await outboxRows(fx)).length === 0);
      expect(await notificationsOf(fx, `reply:${replyId}`)).toEqual([{ user_id: fx.aliceId, type: 'reply' }]);
      expect(await unread(fx, fx.aliceId)).toBe(2);
      expect(restarted.output()).not.toMatch(/"level":(50|60)/);
    },
    SLOW,
  );
});

describeWithRedis(
  'outbox: the app killed between a write and its job (BullMQ on Redis, workers apart)',
  () => {
    let f: Fixture | undefined;
    let redis: RedisHandle;
    const logs = new CapturingLogger();
    let worker: RunningWorker | undefined;

    beforeAll(async () => {
      redis = await startRedis();
      f = await setUp();
    }, SLOW);

    afterAll(async () => {
      await worker?.close();
      await tearDown(f);
      await redis?.stop();
    }, SLOW);

    const apiEnv = (): Record<string, string> => ({ REDIS_URL: redis.url, PROCESS_JOBS: 'off' });

    /** The ids of the notification jobs in Redis, in any state. */
    async function jobsInRedis(): Promise<string[]> {
      const reply = await redisCommand(redis.port, 'KEYS bull:notifications:*');
      return [...reply.matchAll(/bull:notifications:([a-z]+-\d+)\r?$/gm)].map((m) => m[1]!).sort();
    }

    /** A worker process's modules, in this process: its queue workers and its own outbox relay. */
    async function startWorker(fx: Fixture): Promise<RunningWorker> {
      const config = loadConfig(
        {
          DATABASE_URL: fx.database.url,
          REDIS_URL: redis.url,
          HOST: '127.0.0.1',
          WORKER_HEALTH_PORT: String(await freePort()),
          DATA_DIR: fx.dataDir,
        },
        fx.dataDir,
        { role: 'worker' },
      );
      return createWorker(config, { logger: logs });
    }

    async function waiting(): Promise<string> {
      return redisCommand(redis.port, 'LRANGE bull:notifications:wait 0 -1');
    }

    it(
      'killed after Redis took the job, before its row was deleted: resent under the same id, one job, run once',
      async () => {
        const fx = f!;
        const replyId = await replyAndDie(
          fx,
          await start(fx, { ...apiEnv(), [CRASH_VARIABLE]: 'relayed' }),
          'Queued, then killed',
        );
        const jobId = `reply-${replyId}`;
        expect(await redisCommand(redis.port, 'LLEN bull:notifications:wait')).toBe(':1');
        expect(await outboxRows(fx)).toEqual([
          { queue: 'notifications', name: 'reply', data: { replyId }, job_id: jobId },
        ]);

        // The restarted API sends the row again: BullMQ keeps the one job of that id.
        await start(fx, apiEnv());
        await waitFor(
          'the restarted relay to resend the row',
          async () => (await outboxRows(fx)).length === 0,
        );
        expect(await redisCommand(redis.port, 'LLEN bull:notifications:wait')).toBe(':1');
        expect(await jobsInRedis()).toEqual([jobId]);
        expect(await waiting()).toBe(`*1\r\n$${jobId.length}\r\n${jobId}`);

        worker = await startWorker(fx);
        await waitFor(
          'the notification',
          async () => (await notificationsOf(fx, `reply:${replyId}`)).length > 0,
        );
        // An empty wait list only means a worker took the job (active): wait for it to complete.
        await waitFor(
          'the job to complete',
          async () => (await redisCommand(redis.port, 'ZCARD bull:notifications:completed')) === ':1',
        );
        expect(await waiting()).toBe('*0');
        expect(await notificationsOf(fx, `reply:${replyId}`)).toEqual([
          { user_id: fx.aliceId, type: 'reply' },
        ]);
      },
      SLOW,
    );

    it(
      'killed right after the commit, API down: the worker relays the row and runs the job',
      async () => {
        const fx = f!;
        for (const child of fx.children.splice(0)) await child.stop();
        // The worker is stopped while the API dies, so nothing relays the row before it is looked at.
        await worker?.close();
        const replyId = await replyAndDie(
          fx,
          await start(fx, { ...apiEnv(), [CRASH_VARIABLE]: 'committed' }),
          'Committed, then killed',
        );
        expect(await outboxRows(fx)).toHaveLength(1);
        expect(await jobsInRedis()).not.toContain(`reply-${replyId}`);

        // No API runs: the worker's own relay finds the row at its next poll.
        worker = await startWorker(fx);
        await waitFor('the worker to relay and run the job', async () => {
          return (
            (await notificationsOf(fx, `reply:${replyId}`)).length > 0 && (await outboxRows(fx)).length === 0
          );
        });
        expect(await notificationsOf(fx, `reply:${replyId}`)).toEqual([
          { user_id: fx.aliceId, type: 'reply' },
        ]);
        expect(await unread(fx, fx.aliceId)).toBe(2);
        expect(logs.entries.filter((e) => e.level === 'error')).toEqual([]);
      },
      SLOW,
    );
  },
);
