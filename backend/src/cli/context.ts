import { existsSync } from 'node:fs';
import path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { EMBEDDED_DATABASE_NAME } from '../bootstrap.js';
import { StartupError } from '../common/startup-error.js';
import { type AppConfig, loadConfig } from '../config/config.js';
import { dataSourceOptions } from '../infra/database/data-source.options.js';
import {
  EmbeddedPostgresServer,
  type EmbeddedPostgresOptions,
  findRunningPostgres,
} from '../infra/database/embedded-postgres.js';
import { prepareSchema } from '../infra/database/migrate.js';
import { ENTITIES } from '../entities.js';
import type { CliContext } from './command.js';

export interface CliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Where results go (stdout by default) and problems (stderr by default), one line per call. */
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** Standard input (process.stdin by default): what --password-stdin reads. */
  stdin?: () => Promise<string>;
  /** Overrides for an embedded PostgreSQL the CLI starts itself (tests skip fsync). */
  embeddedPostgres?: Partial<Omit<EmbeddedPostgresOptions, 'dir'>>;
}

interface Connection {
  url: string;
  close(): Promise<void>;
}

/** A CliContext whose parts are made on first use; `close` ends whichever were. */
export function cliContext(options: CliOptions): CliContext & { close(): Promise<void> } {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = options.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  let config: AppConfig | undefined;
  let connection: Connection | undefined;
  let dataSource: Promise<DataSource> | undefined;
  let app: Promise<INestApplicationContext> | undefined;

  const loadedConfig = (): AppConfig =>
    (config ??= loadConfig(options.env ?? process.env, options.cwd ?? process.cwd()));

  const connected = async (mayCreate: boolean): Promise<string> => {
    connection ??= await connect(loadedConfig(), options, out, mayCreate);
    return connection.url;
  };

  const open = async (schema: 'prepared' | 'as-is'): Promise<DataSource> => {
    const settings = loadedConfig();
    const url = await connected(false);
    const db = await new DataSource(dataSourceOptions(url, { entities: ENTITIES })).initialize();
    try {
      if (schema === 'prepared') await prepareSchema(db, settings.migrateOnStart, { log: () => undefined });
    } catch (error) {
      await db.destroy().catch(() => undefined);
      throw error;
    }
    return db;
  };

  const database = (schema: 'prepared' | 'as-is' = 'prepared'): Promise<DataSource> =>
    (dataSource ??= open(schema));

  return {
    out,
    err,
    config: loadedConfig,
    cwd: options.cwd ?? process.cwd(),
    databaseUrl: () => connected(true),
    dataSource: database,
    app() {
      app ??= (async () => {
        const db = await database();
        // Loaded with the first command that needs it: the others start no Nest modules.
        const { CliModule } = await import('./cli.module.js');
        return NestFactory.createApplicationContext(CliModule.register(loadedConfig(), db), {
          logger: ['warn', 'error'],
          abortOnError: false,
        });
      })();
      return app;
    },
    stdin: options.stdin ?? readStdin,
    async close() {
      // The app context closes the data source it was given.
      const context = await app?.catch(() => undefined);
      await context?.close().catch(() => undefined);
      const db = await dataSource?.catch(() => undefined);
      if (db?.isInitialized) await db.destroy().catch(() => undefined);
      await connection?.close();
    },
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * DATABASE_URL; in embedded mode a running `npm start`'s PostgreSQL if any (two servers cannot share the
 * data directory), else one the CLI starts on DATA_DIR and stops when done.
 */
async function connect(
  config: AppConfig,
  options: CliOptions,
  out: (line: string) => void,
  mayCreate: boolean,
): Promise<Connection> {
  const { database } = config;
  if (database.mode === 'external') return { url: database.url, close: async () => undefined };

  const running = await findRunningPostgres(database.dir);
  if (running) {
    out(`Using the database of the running Termpaste (PostgreSQL pid ${running.pid} on ${database.dir})`);
    return { url: running.url(EMBEDDED_DATABASE_NAME), close: async () => undefined };
  }
  if (!mayCreate && !existsSync(path.join(database.dir, 'PG_VERSION'))) {
    throw new StartupError(
      `There is no Termpaste database in ${database.dir} yet: start Termpaste once (npm start), or set DATA_DIR`,
    );
  }
  const server = await EmbeddedPostgresServer.start({
    dir: database.dir,
    port: database.port,
    ...options.embeddedPostgres,
  });
  try {
    await server.createDatabaseIfMissing(EMBEDDED_DATABASE_NAME);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url: server.url(EMBEDDED_DATABASE_NAME), close: () => server.stop() };
}
