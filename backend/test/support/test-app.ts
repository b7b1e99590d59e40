import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LoggerService, ModuleMetadata } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { DestinationStream } from 'pino';
import supertest from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.js';
import { type AppConfig, loadConfig } from '../../src/config/config.js';
import { EventsPort } from '../../src/infra/events/events.port.js';
import { createJsonLogs } from '../../src/logging/json-logs.js';
import { CapturingLogger } from './capturing-logger.js';
import { RecordingMailService, recordingMailModule } from './mail.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';
import { SPAM_SIGNALS_OFF } from './spam-signals.js';

export const TEST_SESSION_SECRET = 'test-session-secret-that-is-long-enough-0123456789';

export interface TestAppOptions {
  /** Extra modules, e.g. a test-only controller. */
  imports?: ModuleMetadata['imports'];
  /**
   * Environment on top of the test defaults (FRONTENDS_DIR defaults to an empty folder, RATE_LIMITS to
   * off: suites about rate limits turn them on).
   */
  env?: Record<string, string>;
  /** Run on this database (another app's, to test a restart) instead of a fresh one; close() keeps it. */
  database?: TestDatabase;
  /** JSON logs (pino) written here instead of the CapturingLogger (logging.spec reads them). */
  logDestination?: DestinationStream;
  /** Nest's logger instead of the CapturingLogger (logging.spec's pretty format). */
  logger?: LoggerService;
  /**
   * The app's own queued MailService instead of the recording one: mail goes through the queue to the
   * outbox (or SMTP_URL), as in production. `mail` then records nothing.
   */
  queuedMail?: boolean;
}

export interface TestApp {
  app: NestExpressApplication;
  /** A supertest agent on the listening server (keeps cookies between requests). */
  http: ReturnType<typeof supertest.agent>;
  /**
   * A new browser on our site: an agent with its own cookies that sends `Origin: <origin>` with every
   * request, as a browser does for the state-changing ones the CSRF check wants.
   */
  browser(): ReturnType<typeof supertest.agent>;
  /**
   * The origin a browser on our site sends: PUBLIC_URL's when the test sets it (the address people use,
   * the only one the origin check then accepts besides ALLOWED_ORIGINS), else the app's own URL.
   */
  origin: string;
  /** Every mail the app sent. */
  mail: RecordingMailService;
  url: string;
  config: AppConfig;
  dataSource: DataSource;
  database: TestDatabase;
  logs: CapturingLogger;
  /**
   * Tells the app that every public page changed: for tests that write to the database behind its back
   * (the page cache drops only what writes through the app announce).
   */
  pagesChanged(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real app (createApp, as main.ts builds it) on a fresh database copied from the migrated template,
 * listening on 127.0.0.1 on a free port. Call `close()` in afterAll.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownDatabase = options.database === undefined;
  const database = options.database ?? (await createTestDatabase());
  const dropDatabase = () => (ownDatabase ? database.drop() : Promise.resolve());
  const mail = new RecordingMailService();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'termpaste-test-data-'));
  const logs = new CapturingLogger();
  let app: NestExpressApplication | undefined;
  try {
    const config = loadConfig({
      DATABASE_URL: database.url,
      SESSION_SECRET: TEST_SESSION_SECRET,
      DATA_DIR: dataDir,
      FRONTENDS_DIR: path.join(dataDir, 'no-frontends'),
      RATE_LIMITS: 'off',
      // The spam signals off as the limits are (tests post many, alike, from new accounts): nobody is a
      // new member, copies and bursts are held far beyond what a test posts. Suites about them set them.
      ...SPAM_SIGNALS_OFF,
      // Suites change members by SQL and read the change at once: sessions read each time, but in the
      // suite about the session cache.
      SESSION_CACHE_MS: '0',
      ...options.env,
    });
    app = await createApp({
      config,
      databaseUrl: database.url,
      imports: [...(options.queuedMail ? [] : [recordingMailModule(mail)]), ...(options.imports ?? [])],
      logger: options.logger ?? logs,
      ...(options.logDestination ? { jsonLogs: createJsonLogs(config, options.logDestination) } : {}),
    });
    await app.listen(0, '127.0.0.1');
    const url = await app.getUrl();
    const origin = config.publicUrlSet ? new URL(config.publicUrl).origin : url;
    const started = app;
    return {
      app,
      http: supertest.agent(url),
      browser: () => supertest.agent(url).set('Origin', origin),
      origin,
      mail,
      url,
      config,
      dataSource: app.get(DataSource),
      database,
      logs,
      pagesChanged: () => started.get(EventsPort).broadcast({ type: 'pages_changed', all: true }),
      close: async () => {
        await started.close();
        await dropDatabase();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
