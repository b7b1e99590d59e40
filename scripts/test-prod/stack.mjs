// The first step: PostgreSQL, Redis and an SMTP listener, then a worker, two APIs and nginx in front.
import { join } from 'node:path';
import { backendRequire, root } from '../../harness/paths.mjs';
import { startOtlpReceiver } from '../../harness/otlp-receiver.mjs';
import { startPostgres } from '../../harness/postgres.mjs';
import { Proc, startedWhile } from '../../harness/proc.mjs';
import { startRedis } from '../../harness/redis.mjs';
import { startSmtp } from '../../harness/smtp.mjs';
import { freePort, waitFor } from '../../harness/wait.mjs';
import { JOB_LOCK_SECONDS, METRICS_TOKEN, SESSION_SECRET } from './context.mjs';
import { startNginx, webRoot } from './nginx.mjs';

const pg = backendRequire('pg');
const { Redis } = backendRequire('ioredis');

export const startStack = {
  name: 'start PostgreSQL, Redis, an SMTP listener, a worker, two APIs and nginx',
  /** Fills `env` with the services, their URLs, the processes and clients of Redis and PostgreSQL. */
  async run(env, { tools, tmp, logDir }) {
    const [postgres, redis, mail, otlp] = await Promise.all([
      startPostgres(tools, tmp, logDir),
      startRedis(tools, tmp, logDir),
      startSmtp(),
      startOtlpReceiver(),
    ]);
    env.smtp = mail;
    env.otlp = otlp;
    env.postgres = postgres;
    env.redis = redis;
    const ports = {
      web: await freePort(),
      admin: await freePort(),
      pinned: [await freePort(), await freePort()],
    };
    env.publicUrl = `http://127.0.0.1:${ports.web}`;
    env.adminUrl = `http://127.0.0.1:${ports.admin}`;
    env.pinned = ports.pinned.map((port) => `http://127.0.0.1:${port}`);

    // What every backend process gets, as docker-compose.yml's x-backend-env gives it.
    const backendEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? tmp,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      SMTP_URL: mail.url,
      SESSION_SECRET,
      PUBLIC_URL: env.publicUrl,
      LOG_FORMAT: 'json',
      REMOTE_URLS: JSON.stringify({ admin: `${env.adminUrl}/remoteEntry.js` }),
      ALLOWED_ORIGINS: env.adminUrl,
      // As compose sets it: web's nginx is trusted for the client address (rate limits count per client).
      TRUST_PROXY: '1',
      // The owner: alice, once she verifies her address (no setup code then).
      OWNER_EMAIL: 'alice@example.com',
      // A killed worker's job is taken up after about twice this (BullMQ's default, 30 s, would make
      // the kill step take a minute).
      JOB_LOCK_SECONDS: String(JOB_LOCK_SECONDS),
      METRICS_TOKEN,
      // Traces to the loopback receiver, in JSON from the APIs (in protobuf, the default, from the worker),
      // sent within 200 ms rather than 5 s.
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      // Notification mail at once for a member with no socket open, looked for every second.
      MAIL_AWAY_MINUTES: '0',
      MAIL_SWEEP_SECONDS: '1',
    };
    env.backendEnv = backendEnv;
    env.workerHealthPort = await freePort();
    env.startWorker = async (label) => {
      const proc = new Proc(label, process.execPath, [join(root, 'backend/dist/main.worker.js')], {
        env: {
          ...backendEnv,
          DATA_DIR: join(tmp, 'worker'),
          WORKER_HEALTH_PORT: String(env.workerHealthPort),
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        },
        logDir,
      });
      await startedWhile(
        proc,
        'starting',
        waitFor(
          `${label}'s /ready`,
          async () => (await fetch(`http://127.0.0.1:${env.workerHealthPort}/ready`)).ok,
          // The first start may wait for an API's migrations (the advisory lock).
          60_000,
          200,
        ),
      );
      return proc;
    };
    // The worker and both APIs at once, on the empty database: no ordering, the migrations' advisory
    // lock lets one of them migrate while the others wait and then find nothing to do (migrations.mjs).
    let workerRuns = 0;
    env.newWorker = () => env.startWorker(`worker-${++workerRuns}`);
    const [worker, ...apis] = await Promise.all([
      env.newWorker(),
      ...[1, 2].map(async (n) => {
        const port = await freePort();
        const proc = new Proc(`api${n}`, process.execPath, [join(root, 'backend/dist/main.js')], {
          env: { ...backendEnv, PORT: String(port), DATA_DIR: join(tmp, `api${n}`), PROCESS_JOBS: 'off' },
          logDir,
        });
        await startedWhile(
          proc,
          'starting',
          waitFor(
            `api #${n}'s /api/ready`,
            async () => (await fetch(`http://127.0.0.1:${port}/api/ready`)).ok,
            60_000,
            200,
          ),
        );
        return { proc, port };
      }),
    ]);
    env.worker = worker;
    env.apis = apis;
    const dirs = webRoot(tmp);
    env.nginx = await startNginx(tools, tmp, logDir, {
      ...dirs,
      ports,
      apis: env.apis,
      publicUrl: env.publicUrl,
    });
    env.redisClient = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    env.db = new pg.Client({ connectionString: postgres.url });
    await env.db.connect();
    return `nginx ${env.publicUrl} (api #1 only: ${env.pinned[0]}, api #2 only: ${env.pinned[1]}, admin origin ${env.adminUrl})`;
  },
};
