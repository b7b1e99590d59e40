import { DIGEST_MAILS_SCHEDULE, NOTICE_MAILS_SCHEDULE } from '../src/modules/mailings/mailings.jobs.js';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { getQueueToken } from '@nestjs/bullmq';
import { API, LIVE_EVENT, type LiveEvent, type NotificationsPage } from '@termpaste/contracts';
import type { Queue } from 'bullmq';
import { Client } from 'pg';
import supertest from 'supertest';
import { type AppConfig, ConfigError, loadConfig } from '../src/config/config.js';
import { freePort } from '../src/infra/free-port.js';
import { MAIL_QUEUE, MailService } from '../src/infra/mail/mail.service.js';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import { notificationJobId, NOTIFICATIONS_QUEUE } from '../src/modules/notifications/notifications.queue.js';
import {
  UPLOADS_JOBS,
  UPLOADS_QUEUE,
  UPLOADS_SWEEP_INTERVAL_MS,
  UPLOADS_SWEEP_SCHEDULE,
} from '../src/modules/uploads/uploads.queue.js';
import { EXPIRY_QUEUE, EXPIRY_SWEEP_SCHEDULE } from '../src/modules/pastes/expiry.queue.js';
import { TOKENS_QUEUE, TOKENS_SWEEP_SCHEDULE } from '../src/modules/auth/tokens/tokens.queue.js';
import { TRASH_PURGE_SCHEDULE, TRASH_QUEUE } from '../src/modules/pastes/trash.queue.js';
import { ACCOUNT_QUEUE, EXPORTS_SWEEP_SCHEDULE } from '../src/modules/account/account.queue.js';
import {
  SUSPENSIONS_QUEUE,
  SUSPENSIONS_SWEEP_SCHEDULE,
} from '../src/modules/moderation/suspensions.queue.js';
import { AKISMET_QUEUE } from '../src/modules/screening/akismet.queue.js';
import { BACKUP_QUEUE } from '../src/infra/backup/backup.queue.js';
import { createWorker, type RunningWorker, startWorker } from '../src/worker.module.js';
import { type Browser, registered } from './support/accounts.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { connect, type LiveUser, liveUser } from './support/live.js';
import { createTestDatabase } from './support/postgres.js';
import { describeWithRedis, type RedisHandle, startRedis } from './support/redis.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

describeWithRedis('queue worker (main.worker.ts) beside an API with PROCESS_JOBS=off', () => {
  let redis: RedisHandle;
  let api: TestApp;
  let dataDir: string;
  let author: LiveUser;
  let replier: Browser;
  let threadId: number;
  const logs = new CapturingLogger();
  const workers: RunningWorker[] = [];

  /** The worker's environment: the API's database and Redis, its own health port and DATA_DIR. */
  async function workerEnv(databaseUrl = api.database.url): Promise<Record<string, string>> {
    return {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      HOST: '127.0.0.1',
      WORKER_HEALTH_PORT: String(await freePort()),
      DATA_DIR: dataDir,
    };
  }

  async function workerConfig(databaseUrl?: string): Promise<AppConfig> {
    return loadConfig(await workerEnv(databaseUrl), dataDir, { role: 'worker' });
  }

  async function startOne(config: AppConfig): Promise<RunningWorker> {
    const worker = await createWorker(config, { logger: logs });
    workers.push(worker);
    return worker;
  }

  const notificationsQueue = (): Queue =>
    api.app.get<Queue>(getQueueToken(NOTIFICATIONS_QUEUE), { strict: false });
  const uploadsQueue = (): Queue => api.app.get<Queue>(getQueueToken(UPLOADS_QUEUE), { strict: false });

  async function reply(content: string): Promise<number> {
    const res = await replier.post(API.threadReplies(threadId)).send({ content }).expect(201);
    return (res.body as { id: number }).id;
  }

  async function notificationsOfAuthor(): Promise<NotificationsPage['notifications']> {
    const res = await author.browser.get(API.notifications).expect(200);
    return (res.body as NotificationsPage).notifications;
  }

  beforeAll(async () => {
    redis = await startRedis();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'termpaste-worker-'));
    api = await createTestApp({ env: { REDIS_URL: redis.url, PROCESS_JOBS: 'off' } });
    author = await liveUser(api);
    replier = (await registered(api)).browser;
    const res = await author.browser
      .post(API.threads)
      .send({ title: 'Worker paste', content: 'echo hi' })
      .expect(201);
    threadId = (res.body as { id: number }).id;
  });

  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.close();
  });

  afterAll(async () => {
    await api?.close();
    await redis?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a job the API queues waits until a worker runs it (the API runs none)', async () => {
    expect(api.logs.text()).toContain(
      'Not running jobs here (PROCESS_JOBS=off): workers run queues mail, notifications, uploads, tokens, expiry, trash, account, suspensions',
    );
    const replyId = await reply('First!');
    const jobId = notificationJobId('reply', replyId);
    await waitFor(
      'the job to be queued',
      async () => (await notificationsQueue().getJobState(jobId)) !== 'unknown',
    );
    await sleep(500);
    expect(await notificationsQueue().getJobState(jobId)).toBe('waiting');
    expect(await notificationsOfAuthor()).toEqual([]);
    const live = await connect(api, { cookie: author.cookie });

    const worker = await startOne(await workerConfig());
    expect(worker.queues).toEqual([
      MAIL_QUEUE,
      NOTIFICATIONS_QUEUE,
      UPLOADS_QUEUE,
      TOKENS_QUEUE,
      EXPIRY_QUEUE,
      TRASH_QUEUE,
      ACCOUNT_QUEUE,
      SUSPENSIONS_QUEUE,
      AKISMET_QUEUE,
      BACKUP_QUEUE,
    ]);
    expect(logs.text()).toContain(
      'Worker started: running the jobs of queues mail, notifications, uploads, tokens, expiry, trash, account, suspensions, akismet, backups',
    );
    await waitFor(
      'the worker to complete the job',
      async () => (await notificationsQueue().getJobState(jobId)) === 'completed',
    );
    const [notification] = await notificationsOfAuthor();
    expect(notification).toMatchObject({ type: 'reply', threadId });
    // The worker's live event reaches the API's socket through Redis.
    await live.next(
      'the notification pushed to the author',
      (frame) => (frame as LiveEvent).type === LIVE_EVENT.notification,
    );
    await live.close();
    const job = await notificationsQueue().getJob(jobId);
    expect(job?.opts).toMatchObject({
      attempts: 5,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { count: 1000, age: 24 * 3600 },
      removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
    });
  });

  it('runs the mail queue too (without SMTP_URL: into its outbox)', async () => {
    const worker = await startOne(await workerConfig());
    await worker.app
      .get(MailService)
      .send({ to: 'ops@example.com', subject: 'From the worker', text: 'Queued and sent by a worker' });
    const outbox = path.join(dataDir, 'outbox');
    const file = await waitFor('the mail in the outbox', async () =>
      (await readdir(outbox).catch(() => [])).find((name) => name.endsWith('.eml')),
    );
    expect(await readFile(path.join(outbox, file), 'utf8')).toContain('Subject: From the worker');
  });

  it('schedules the uploads sweep in Redis from the workers, once however many, never from the API; a worker runs it', async () => {
    // The API (PROCESS_JOBS=off) registers the sweeps and leaves them to the workers.
    // (In the order the modules start, which the module graph decides.)
    expect(
      api.app
        .get(QueuePort)
        .repeatableJobs.map((job) => job.id)
        .sort(),
    ).toEqual(
      [
        EXPIRY_SWEEP_SCHEDULE,
        TRASH_PURGE_SCHEDULE,
        EXPORTS_SWEEP_SCHEDULE,
        UPLOADS_SWEEP_SCHEDULE,
        TOKENS_SWEEP_SCHEDULE,
        SUSPENSIONS_SWEEP_SCHEDULE,
        NOTICE_MAILS_SCHEDULE,
        DIGEST_MAILS_SCHEDULE,
      ].sort(),
    );
    expect(api.logs.text()).not.toContain('repeats every');
    // The scheduler the earlier tests' workers made, removed: from here on only this test's make it.
    await uploadsQueue().removeJobScheduler(UPLOADS_SWEEP_SCHEDULE);
    expect(await uploadsQueue().getJobScheduler(UPLOADS_SWEEP_SCHEDULE)).toBeUndefined();
    const upserted = () =>
      logs.text().split('Job uploads/sweep (uploads-sweep) repeats every 600000 ms').length - 1;
    const upsertedBefore = upserted();

    const started = Date.now();
    await startOne(await workerConfig());
    await waitFor('the first worker to schedule the sweep', () => upserted() === upsertedBefore + 1);
    const scheduler = await uploadsQueue().getJobScheduler(UPLOADS_SWEEP_SCHEDULE);
    expect(scheduler).toMatchObject({ name: UPLOADS_JOBS.sweep, every: UPLOADS_SWEEP_INTERVAL_MS });
    // The first sweep one interval after the start, not at once.
    expect(scheduler!.next).toBeGreaterThanOrEqual(started + UPLOADS_SWEEP_INTERVAL_MS);
    expect(await uploadsQueue().getDelayedCount()).toBe(1);

    // A second worker: the same one scheduler, its next run still the one job.
    await startOne(await workerConfig());
    await waitFor('the second worker to upsert it', () => upserted() === upsertedBefore + 2);
    expect(await uploadsQueue().getJobSchedulers()).toEqual([
      expect.objectContaining({ key: UPLOADS_SWEEP_SCHEDULE, next: scheduler!.next }),
    ]);
    expect(await uploadsQueue().getDelayedCount()).toBe(1);

    // A sweep job runs on a worker: an upload form handed out long ago is swept.
    const key = `pending/1/${'w'.repeat(22)}`;
    await api.dataSource.query(
      `INSERT INTO pending_uploads (key, user_id, created_at) VALUES ($1, 1, now() - interval '1 day')`,
      [key],
    );
    await api.app.get(QueuePort).add(UPLOADS_QUEUE, UPLOADS_JOBS.sweep, {}, { jobId: 'sweep-now' });
    await waitFor(
      'a worker to run the sweep',
      async () => (await uploadsQueue().getJobState('sweep-now')) === 'completed',
    );
    expect(await api.dataSource.query('SELECT key FROM pending_uploads WHERE key = $1', [key])).toEqual([]);
  });

  it('answers /health (liveness, 200 while it runs), /ready (503 once the database is gone) and /metrics', async () => {
    const worker = await startOne(await workerConfig());
    expect(worker.healthUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/health$/);
    const origin = new URL(worker.healthUrl).origin;
    const ok = await supertest(origin).get('/health').expect(200);
    expect(ok.body).toEqual({ status: 'ok', db: 'up', redis: 'up' });
    expect(ok.headers['cache-control']).toBe('no-store');
    await supertest(origin).get('/ready').expect(200, { status: 'ready', db: 'up', redis: 'up' });
    await supertest(origin).get('/api/health').expect(404);
    // Never public: without METRICS_TOKEN (or with METRICS_LISTEN) the health port has no /metrics.
    await supertest(origin).get('/metrics').expect(404);
    expect(logs.text()).toContain(`Worker health check at ${worker.healthUrl}`);

    // A worker of its own on a database that goes away, scraped with its token.
    const database = await createTestDatabase();
    const token = 'worker-metrics-token-0123456789';
    const env = { ...(await workerEnv(database.url)), METRICS_TOKEN: token };
    const doomed = await startOne(loadConfig(env, dataDir, { role: 'worker' }));
    const doomedOrigin = new URL(doomed.healthUrl).origin;
    await supertest(doomedOrigin).get('/metrics').expect(401);
    const scraped = await supertest(doomedOrigin)
      .get('/metrics')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(scraped.text).toMatch(/^termpaste_queue_jobs\{queue="mail",state="waiting"\} \d+$/m);
    expect(scraped.text).toMatch(/^termpaste_db_pool_clients\{state="total"\} \d+$/m);
    await database.drop();
    const started = Date.now();
    await supertest(doomedOrigin).get('/health').expect(200, { status: 'ok', db: 'down', redis: 'up' });
    const down = await supertest(doomedOrigin).get('/ready').expect(503);
    expect(down.body).toEqual({ status: 'not ready', db: 'down', redis: 'up' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('on SIGTERM stops taking jobs, lets the running one finish, then closes and exits 0', async () => {
    const exits: number[] = [];
    const env = await workerEnv();
    const listeners = process.listenerCount('SIGTERM');
    const worker = await startWorker({ env, cwd: dataDir, logger: logs, exit: (code) => exits.push(code) });
    expect(process.listenerCount('SIGTERM')).toBe(listeners + 1);
    const healthOrigin = new URL(worker.healthUrl).origin;

    // The job blocks on a lock the test holds, so it is running when the signal comes.
    const lock = new Client(api.database.url);
    await lock.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE notifications IN EXCLUSIVE MODE');
      const replyId = await reply('Second!');
      const jobId = notificationJobId('reply', replyId);
      await waitFor(
        'the worker to take the job',
        async () => (await notificationsQueue().getJobState(jobId)) === 'active',
      );
      await sleep(200);

      logs.entries.length = 0;
      process.emit('SIGTERM', 'SIGTERM');
      await sleep(500);
      expect(exits).toEqual([]); // still waiting for the job
      expect(await notificationsQueue().getJobState(jobId)).toBe('active');
      expect(logs.text()).toContain('SIGTERM received: shutting down');
      expect(logs.text()).toContain('Waiting for 1 running job(s) to finish');

      await lock.query('COMMIT');
      await waitFor('the worker to exit', () => exits.length > 0);
      expect(exits).toEqual([0]);
      expect(await notificationsQueue().getJobState(jobId)).toBe('completed');
      expect((await notificationsOfAuthor()).map((n) => n.type)).toEqual(['reply', 'reply']);
      const messages = logs.entries.map((entry) => entry.message);
      expect(messages.indexOf('Worker stopped')).toBeGreaterThan(
        messages.indexOf('SIGTERM received: shutting down'),
      );
      await expect(supertest(healthOrigin).get('/health')).rejects.toThrow(/ECONNREFUSED/);
      expect(process.listenerCount('SIGTERM')).toBe(listeners);
    } finally {
      await lock.end();
      await worker.close();
    }
  });

  it('refuses to start without DATABASE_URL or REDIS_URL, saying why', async () => {
    const { REDIS_URL, DATABASE_URL, ...rest } = await workerEnv();
    await expect(startWorker({ env: { ...rest, REDIS_URL }, cwd: dataDir, logger: logs })).rejects.toThrow(
      /^Invalid configuration: a worker needs DATABASE_URL \(it takes jobs from Redis/,
    );
    await expect(startWorker({ env: { ...rest, DATABASE_URL }, cwd: dataDir, logger: logs })).rejects.toThrow(
      ConfigError,
    );
    // A configuration read for the API (embedded database) is refused too.
    const embedded = loadConfig({ DATA_DIR: dataDir, REDIS_URL }, dataDir);
    await expect(createWorker(embedded, { logger: logs })).rejects.toThrow(
      /a worker needs DATABASE_URL and REDIS_URL/,
    );
  });
});
