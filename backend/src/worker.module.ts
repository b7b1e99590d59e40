import { ENTITIES } from './entities.js';
import 'reflect-metadata';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type DynamicModule,
  type INestApplicationContext,
  Logger,
  type LoggerService,
  type LogLevel,
  Module,
  type ModuleMetadata,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { settlesWithin } from './common/settles-within.js';
import { StartupError } from './common/startup-error.js';
import { urlHost } from './common/url-host.js';
import { type AppConfig, ConfigError, loadConfig } from './config/config.js';
import { createJsonLogs } from './logging/json-logs.js';
import { PrettyLogger } from './logging/pretty-logs.js';
import { ConfigModule } from './config/config.module.js';
import { databaseModule } from './infra/database/database.module.js';
import { EventsModule } from './infra/events/events.module.js';
import { PresenceModule } from './infra/presence/presence.module.js';
import { BackupModule } from './infra/backup/backup.module.js';
import { MailModule } from './infra/mail/mail.module.js';
import { MetricsModule } from './infra/metrics/metrics.module.js';
import { LINK_MAILS } from './mails.js';
import { BullMqQueue } from './infra/queue/bullmq.queue.js';
import { OutboxModule } from './infra/outbox/outbox.module.js';
import { QueueModule } from './infra/queue/queue.module.js';
import {
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  jobLock,
  type QueueModuleOptions,
} from './infra/queue/queue.options.js';
import { QueuePort } from './infra/queue/queue.port.js';
import { QUEUE_NAMES } from './queues.js';
import { StorageModule } from './infra/storage/storage.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { HealthService, LIVENESS_DATABASE_TIMEOUT_MS } from './modules/health/health.service.js';
import { answerMetrics, METRICS_PATH } from './infra/metrics/metrics-http.js';
import { Metrics } from './infra/metrics/metrics.js';
import { NotificationsModule } from './modules/notifications/notifications.module.js';
import { PostNoticesModule } from './modules/pastes/post-notices.module.js';
import { MessageNoticesModule } from './modules/messages/message-notices.module.js';
import { WatchNoticesModule } from './modules/watching/watch-notices.module.js';
import { UploadsSweepModule } from './modules/uploads/uploads-sweep.module.js';
import { TokensSweepModule } from './modules/auth/tokens-sweep.module.js';
import { PasteExpiryModule } from './modules/pastes/paste-expiry.module.js';
import { TrashPurgeModule } from './modules/pastes/trash-purge.module.js';
import { ExportsModule } from './modules/account/exports.module.js';
import { SuspensionLiftModule } from './modules/moderation/suspension-lift.module.js';
import { AkismetModule } from './modules/moderation/akismet.module.js';

/** The worker's liveness (200 while it runs), on WORKER_HEALTH_PORT. */
export const WORKER_HEALTH_PATH = '/health';
/** The worker's readiness: 503 while PostgreSQL or Redis does not answer. */
export const WORKER_READY_PATH = '/ready';

/** Beyond the wait for running jobs: how long closing the connections may take before we give up. */
const CLOSE_MARGIN_MS = 5000;

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export interface WorkerModuleOptions {
  config: AppConfig;
  /** Extra modules (tests). */
  imports?: ModuleMetadata['imports'];
  /** Overrides of the queue's options (tests: the shutdown timeout, a short lock). */
  queue?: Omit<Partial<QueueModuleOptions>, 'redisUrl' | 'runProcessors'>;
}

/**
 * What a production worker (main.worker.ts) runs: the configuration, the database, the queue with every
 * `@QueueProcessor` of the app (mail, notifications, the uploads and tokens sweeps, pastes' expiry, the trash purge, data exports, the end of suspensions, the Akismet check) and what they need (live events
 * over Redis, users), and no HTTP API. A module that gains a processor is imported here too.
 */
@Module({})
export class WorkerModule {
  static register({ config, imports = [], queue = {} }: WorkerModuleOptions): DynamicModule {
    const databaseUrl = externalDatabaseUrl(config);
    return {
      module: WorkerModule,
      imports: [
        ...imports,
        ConfigModule.forRoot(config),
        MetricsModule,
        // The same data source as the API's (migrations under their lock: run once however many start).
        databaseModule(databaseUrl, {
          entities: ENTITIES,
          poolSize: config.databasePoolSize,
          migrateOnStart: config.migrateOnStart,
        }),
        QueueModule.forRoot({
          queues: QUEUE_NAMES,
          ...queue,
          worker: { ...jobLock(config), ...queue.worker },
          redisUrl: config.redisUrl,
          runProcessors: true,
        }),
        // Relays the outbox too: the jobs an API left there when it died go out without waiting for it.
        OutboxModule.forRoot(),
        EventsModule.forRoot({ redisUrl: config.redisUrl }),
        // The away mails ask who has a live socket open.
        PresenceModule.forRoot({ redisUrl: config.redisUrl }),
        StorageModule.forRoot(config),
        HealthModule,
        // Every module that owns a processor (the mail queue's: the link mails, the away mails, digests).
        MailModule.forRoot(LINK_MAILS),
        NotificationsModule,
        // What new pastes, replies and messages notify: their modules register it with the notifications.
        PostNoticesModule,
        MessageNoticesModule,
        WatchNoticesModule,
        // The uploads queue: the repeatable sweep of unclaimed uploads.
        UploadsSweepModule,
        // The tokens queue: the repeatable deletion of long-revoked access tokens.
        TokensSweepModule,
        // The expiry queue: expired pastes removed for good (a delayed job each, and a sweep).
        PasteExpiryModule,
        // The trash queue: the repeatable purge of posts deleted TRASH_DAYS days ago.
        TrashPurgeModule,
        // The account queue: building data exports, and the repeatable sweep of expired archives.
        ExportsModule,
        // The suspensions queue: timed bans and silences lifted when they end (a delayed job each, and a sweep).
        SuspensionLiftModule,
        // The akismet queue: the spam check of each published post (AKISMET_KEY set).
        AkismetModule,
        // The backups queue: scheduled backups (BACKUP_CRON).
        BackupModule,
      ],
    };
  }
}

/** DATABASE_URL; a worker with an embedded database or without Redis is a configuration mistake. */
function externalDatabaseUrl(config: AppConfig): string {
  if (config.database.mode !== 'external' || !config.redisUrl) {
    throw new ConfigError(
      'Invalid configuration: a worker needs DATABASE_URL and REDIS_URL (it takes jobs from Redis and ' +
        'runs them on the shared PostgreSQL); without REDIS_URL, `npm start` runs the jobs itself',
    );
  }
  return config.database.url;
}

export interface CreateWorkerOptions extends Omit<WorkerModuleOptions, 'config'> {
  logger?: LoggerService | LogLevel[] | false;
}

export interface RunningWorker {
  app: INestApplicationContext;
  /** The queues whose jobs this worker runs. */
  queues: string[];
  /** `http://<host>:<port>/health`, where the worker answers its health check. */
  healthUrl: string;
  /**
   * Stops taking jobs, waits (bounded) for the running ones, closes the health check and every
   * connection. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Starts a queue worker for `config` (DATABASE_URL and REDIS_URL required): runs every queue's jobs and
 * answers on HOST:WORKER_HEALTH_PORT `GET /health` (liveness: 200 while it runs, PostgreSQL and Redis
 * reported), `GET /ready` (200 while both answer, else 503) and `GET /metrics` (with METRICS_TOKEN).
 */
export async function createWorker(
  config: AppConfig,
  options: CreateWorkerOptions = {},
): Promise<RunningWorker> {
  const { logger, ...moduleOptions } = options;
  if (logger !== undefined) Logger.overrideLogger(logger);
  const log = new Logger('Worker');
  const app = await NestFactory.createApplicationContext(
    WorkerModule.register({ config, ...moduleOptions }),
    {
      abortOnError: false,
      ...(logger === undefined ? {} : { logger }),
    },
  );
  const health = app.get(HealthService);
  const metrics = app.get(Metrics);
  // /metrics here with METRICS_TOKEN, as on the API's port; with METRICS_LISTEN, only there.
  const metricsToken = config.metrics.listen ? undefined : config.metrics.token;
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] === METRICS_PATH) {
      void answerMetrics(metrics, req, res, { token: metricsToken, open: false });
    } else {
      void answerHealth(health, req, res);
    }
  });
  try {
    server.listen(config.workerHealthPort, config.host);
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error as Error)),
    ]);
  } catch (error) {
    await app.close().catch(() => undefined);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new StartupError(
        `Port ${config.workerHealthPort} is already in use on ${config.host}: ` +
          'stop the other process or set WORKER_HEALTH_PORT',
        { cause: error },
      );
    }
    throw error;
  }

  const queues = app.get(QueuePort) instanceof BullMqQueue ? app.get(BullMqQueue).processedQueues : [];
  const { port } = server.address() as AddressInfo;
  const healthUrl = `http://${urlHost(config.host)}:${port}${WORKER_HEALTH_PATH}`;
  log.log(`Worker started: running the jobs of queues ${queues.join(', ')}`);
  log.log(`Worker health check at ${healthUrl}`);

  const closeTimeoutMs =
    (moduleOptions.queue?.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS) + CLOSE_MARGIN_MS;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      log.log('Worker stopping: no new jobs; waiting for the running ones');
      try {
        if (!(await settlesWithin(app.close(), closeTimeoutMs))) {
          log.warn(`The worker did not close within ${closeTimeoutMs} ms; stopping anyway`);
        }
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      log.log('Worker stopped');
    })();
    return closing;
  };
  return { app, queues, healthUrl, close };
}

async function answerHealth(
  health: HealthService,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const send = (status: number, body: object): void => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
  };
  const path = (req.url ?? '').split('?')[0];
  if (path !== WORKER_HEALTH_PATH && path !== WORKER_READY_PATH) {
    send(404, { statusCode: 404, message: 'Not Found' });
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    send(405, { statusCode: 405, message: 'Method Not Allowed' });
    return;
  }
  const state = (up: boolean | undefined) => (up ? 'up' : 'down');
  if (path === WORKER_HEALTH_PATH) {
    // Liveness: a dependency down is reported, never a reason to restart the worker.
    const timeout = LIVENESS_DATABASE_TIMEOUT_MS;
    const [db, redis] = await Promise.all([
      health.isDatabaseUp(timeout).catch(() => false),
      health.isRedisUp(timeout).catch(() => false),
    ]);
    send(200, { status: 'ok', db: state(db), redis: state(redis) });
    return;
  }
  try {
    const [db, redis] = await Promise.all([health.isDatabaseUp(), health.isRedisUp()]);
    if (db && redis) send(200, { status: 'ready', db: 'up', redis: 'up' });
    else send(503, { status: 'not ready', db: state(db), redis: state(redis) });
  } catch {
    send(503, { status: 'not ready' });
  }
}

export interface StartWorkerOptions extends CreateWorkerOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Ends the process once a signal's shutdown is done (tests pass a spy). */
  exit?: (code: number) => void;
}

/**
 * main.worker.ts: reads the configuration as a worker (DATABASE_URL and REDIS_URL required), starts it,
 * and on SIGTERM or SIGINT stops taking jobs, lets the running ones finish (bounded), closes every
 * connection and exits 0 (1 when closing failed). A repeated signal only waits.
 */
export async function startWorker(options: StartWorkerOptions = {}): Promise<RunningWorker> {
  const { env = process.env, cwd = process.cwd(), exit = (code) => process.exit(code), ...rest } = options;
  const config = loadConfig(env, cwd, { role: 'worker' });
  // LOG_FORMAT=json: the worker's lines are JSON too, unless the caller brought its own logger.
  const logger =
    rest.logger ?? (config.logFormat === 'json' ? createJsonLogs(config).nest : new PrettyLogger());
  const worker = await createWorker(config, { ...rest, ...(logger === undefined ? {} : { logger }) });
  const log = new Logger('Worker');
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (shuttingDown) {
      log.warn(`${signal} received again: still waiting for the running jobs`);
      return;
    }
    shuttingDown = true;
    log.log(`${signal} received: shutting down`);
    worker
      .close()
      .then(
        () => 0,
        (error: unknown) => {
          log.error('Shutdown failed', error instanceof Error ? error.stack : String(error));
          return 1;
        },
      )
      .then((code) => {
        for (const name of SHUTDOWN_SIGNALS) process.removeListener(name, onSignal);
        exit(code);
      });
  };
  for (const name of SHUTDOWN_SIGNALS) process.on(name, onSignal);
  return {
    ...worker,
    close: async () => {
      for (const name of SHUTDOWN_SIGNALS) process.removeListener(name, onSignal);
      await worker.close();
    },
  };
}
