import { existsSync } from 'node:fs';
import path from 'node:path';
import { Logger, type LoggerService, type LogLevel } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApp } from './app.js';
import { settlesWithin } from './common/settles-within.js';
import { StartupError } from './common/startup-error.js';
import { urlHost } from './common/url-host.js';
import { type AppConfig, loadConfig } from './config/config.js';
import { EmbeddedPostgresServer, type EmbeddedPostgresOptions } from './infra/database/embedded-postgres.js';
import { type SuperviseOptions, supervisePostgres } from './infra/database/postgres-supervisor.js';
import { createJsonLogs } from './logging/json-logs.js';
import { PrettyLogger } from './logging/pretty-logs.js';

/** The database the app uses inside the embedded cluster. */
export const EMBEDDED_DATABASE_NAME = 'termpaste';

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const APP_CLOSE_TIMEOUT_MS = 10_000;

export interface BootstrapOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Shut down and exit on SIGINT, SIGTERM and SIGHUP (default true). */
  handleSignals?: boolean;
  /** Ends the process once a signal's shutdown is done (tests pass a spy). */
  exit?: (code: number) => void;
  logger?: LoggerService | LogLevel[] | false;
  /** Overrides for the embedded PostgreSQL (tests keep it attached and skip fsync). */
  embeddedPostgres?: Partial<Omit<EmbeddedPostgresOptions, 'dir'>>;
  /** Overrides for restarting the embedded PostgreSQL when it stops on its own (tests shorten the waits). */
  supervisor?: Partial<Pick<SuperviseOptions, 'tries' | 'delaysMs' | 'stableMs'>>;
}

export interface RunningServer {
  config: AppConfig;
  app: NestExpressApplication;
  /** The embedded PostgreSQL, when DATABASE_URL is unset. */
  database: EmbeddedPostgresServer | undefined;
  /** Where the server actually listens. */
  url: string;
  /** Closes the app (in-flight requests finish), then stops the embedded PostgreSQL. Idempotent. */
  shutdown(): Promise<void>;
}

/**
 * Starts Termpaste (the embedded PostgreSQL when DATABASE_URL is unset). On a signal the app closes
 * first, then PostgreSQL; a repeated signal only waits, so PostgreSQL is never left half-stopped.
 */
export async function bootstrap(options: BootstrapOptions = {}): Promise<RunningServer> {
  // Before Nest exists, so that start-up messages go to the same logger as the app's.
  if (options.logger !== undefined) Logger.overrideLogger(options.logger);
  const logger = new Logger('Termpaste');
  const exit = options.exit ?? ((code) => process.exit(code));
  const startup = start(options, logger, exit);
  if (options.handleSignals ?? true) handleShutdownSignals(startup, logger, exit);
  return startup;
}

async function start(
  options: BootstrapOptions,
  logger: Logger,
  exit: (code: number) => void,
): Promise<RunningServer> {
  const config = loadConfig(options.env ?? process.env, options.cwd ?? process.cwd());
  // LOG_FORMAT=json: JSON lines from here on (start-up and PostgreSQL's lines too), unless the caller
  // brought its own logger.
  const jsonLogs =
    options.logger === undefined && config.logFormat === 'json' ? createJsonLogs(config) : undefined;
  if (jsonLogs) Logger.overrideLogger(jsonLogs.nest);
  else if (options.logger === undefined) Logger.overrideLogger(new PrettyLogger());

  let database: EmbeddedPostgresServer | undefined;
  let databaseUrl: string;
  if (config.database.mode === 'embedded') {
    if (!existsSync(path.join(config.database.dir, 'PG_VERSION'))) {
      logger.log(`First start: creating the embedded PostgreSQL cluster in ${config.database.dir}`);
    }
    database = await EmbeddedPostgresServer.start({
      dir: config.database.dir,
      port: config.database.port,
      onLog: logPostgresLine,
      ...options.embeddedPostgres,
    });
    try {
      await database.createDatabaseIfMissing(EMBEDDED_DATABASE_NAME);
    } catch (error) {
      await database.stop();
      throw error;
    }
    databaseUrl = database.url(EMBEDDED_DATABASE_NAME);
  } else {
    databaseUrl = config.database.url;
  }

  let app: NestExpressApplication | undefined;
  try {
    app = await createApp({ config, databaseUrl, logger: options.logger, jsonLogs });
    await app.listen(config.port, config.host);
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database?.stop();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new StartupError(
        `Port ${config.port} is already in use on ${config.host}: stop the other server or set PORT`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }

  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.log(`${config.productName} is running at ${config.publicUrl}`);
  logger.log(
    database
      ? `Database: embedded PostgreSQL at ${database.dir} (127.0.0.1:${database.port})`
      : 'Database: external PostgreSQL (DATABASE_URL)',
  );

  const running = app;
  let stopping: Promise<void> | undefined;
  // The embedded PostgreSQL has no other supervisor: we restart it when it stops on its own, and stop
  // (exit code 1) when it cannot be brought back. An external one (DATABASE_URL) is its operator's: the
  // pool reconnects whenever it is back, requests meanwhile get 503.
  const supervisor =
    database &&
    supervisePostgres(database, {
      ...options.supervisor,
      logger,
      onGiveUp: () => {
        void shutdown().then(() => exit(1));
      },
    });
  const shutdown = (): Promise<void> => {
    stopping ??= (async () => {
      supervisor?.stop();
      try {
        const closed = await settlesWithin(running.close(), APP_CLOSE_TIMEOUT_MS);
        if (!closed) logger.warn(`The app did not close within ${APP_CLOSE_TIMEOUT_MS} ms; stopping anyway`);
      } catch (error) {
        logger.error('Closing the app failed', error instanceof Error ? error.stack : String(error));
      }
      if (database) {
        logger.log('Stopping embedded PostgreSQL');
        await database.stop();
      }
      logger.log('Stopped');
    })();
    return stopping;
  };

  return { config, app, database, url: `http://${urlHost(config.host)}:${port}`, shutdown };
}

function handleShutdownSignals(
  startup: Promise<RunningServer>,
  logger: Logger,
  exit: (code: number) => void,
): void {
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (shuttingDown) {
      logger.warn(`${signal} received again: still shutting down, waiting for PostgreSQL to stop`);
      return;
    }
    shuttingDown = true;
    logger.log(`${signal} received: shutting down`);
    // A signal during start-up waits for it to finish (or fail and clean up), then shuts down.
    startup
      .then(
        (server) => server.shutdown(),
        () => undefined,
      )
      .then(
        () => 0,
        (error: unknown) => {
          logger.error('Shutdown failed', error instanceof Error ? error.stack : String(error));
          return 1;
        },
      )
      .then((code) => {
        for (const name of SHUTDOWN_SIGNALS) process.removeListener(name, onSignal);
        exit(code);
      });
  };
  for (const name of SHUTDOWN_SIGNALS) process.on(name, onSignal);
  // A failed start-up ends the process through its caller; the handlers must not outlive it.
  startup.catch(() => {
    if (!shuttingDown) for (const name of SHUTDOWN_SIGNALS) process.removeListener(name, onSignal);
  });
}

const postgresLogger = new Logger('PostgreSQL');

/**
 * PostgreSQL is chatty: only its warnings and errors reach our log (start-up failures include the rest),
 * less the refusals of connections made while it starts or recovers (our own readiness checks, the pool).
 */
const NOT_READY_YET = /the database system is (starting up|not yet accepting connections|in recovery mode)/;

function logPostgresLine(line: string): void {
  if (NOT_READY_YET.test(line)) return;
  if (/\b(WARNING|ERROR|FATAL|PANIC):/.test(line)) postgresLogger.warn(line);
}
