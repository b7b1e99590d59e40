import { Logger } from '@nestjs/common';
import { type DataSource, MigrationExecutor, type QueryRunner } from 'typeorm';
import { StartupError } from '../../common/startup-error.js';

/**
 * The key of the session advisory lock every process takes to migrate: replicas started together take
 * turns, and the ones after the first find nothing left to do. A fixed number (not a hash of a name, so
 * `pg_locks` shows it as is): 0x7465726d ("term").
 */
export const MIGRATIONS_LOCK_KEY = 1_952_805_485;

/** What the database lacks: the names of the migrations not applied yet, oldest first. */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    const pending = await new MigrationExecutor(dataSource, runner).getPendingMigrations();
    return pending.map((migration) => migration.name);
  } finally {
    await runner.release();
  }
}

/**
 * Applies the pending migrations while holding the migrations' advisory lock on one connection, so two processes never run them at once: the
 * second waits for the lock and then finds them applied. Returns the names it applied.
 */
export async function migrateUnderLock(
  dataSource: DataSource,
  logger: Pick<Logger, 'log'> = new Logger('Database'),
): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    // The driver's own client: a wait for the lock is no slow query to warn of (TypeORM's logger would).
    const client = (await runner.connect()) as LockClient;
    const [{ locked }] = (await client.query(TRY_LOCK, [MIGRATIONS_LOCK_KEY])).rows;
    if (!locked) {
      logger.log('Another process is migrating the database: waiting for it');
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATIONS_LOCK_KEY]);
    }
    try {
      return await applyPending(dataSource, runner);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATIONS_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}

const TRY_LOCK = 'SELECT pg_try_advisory_lock($1) AS locked';

/** What the postgres query runner's connect() gives: pg's client. */
interface LockClient {
  query(sql: string, params: unknown[]): Promise<{ rows: [{ locked: boolean }] }>;
}

async function applyPending(dataSource: DataSource, runner: QueryRunner): Promise<string[]> {
  // One transaction for them all (TypeORM's default, as before): a failure leaves the schema as it was.
  const applied = await new MigrationExecutor(dataSource, runner).executePendingMigrations();
  return applied.map((migration) => migration.name);
}

/** The start-up log's line for what migrateUnderLock did. */
export function migratedLine(applied: readonly string[]): string {
  if (applied.length === 0) return 'Database up to date';
  return `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')}`;
}

/** Why a process refuses to start on a database that lacks migrations (MIGRATE_ON_START=off). */
export function databaseBehindMessage(pending: readonly string[]): string {
  return (
    `The database is behind: ${pending.length} migration${pending.length === 1 ? '' : 's'} not applied ` +
    `(${pending.join(', ')}). Run \`termpaste migrate\` (\`npm run admin -- migrate\` from a checkout), ` +
    'or set MIGRATE_ON_START=on'
  );
}

/**
 * At start-up, on an initialized data source: migrate under the lock (MIGRATE_ON_START on, the default),
 * or refuse to start while migrations are pending (off: an operator runs `termpaste migrate`).
 */
export async function prepareSchema(
  dataSource: DataSource,
  migrateOnStart: boolean,
  logger: Pick<Logger, 'log'> = new Logger('Database'),
): Promise<void> {
  if (migrateOnStart) {
    logger.log(migratedLine(await migrateUnderLock(dataSource, logger)));
    return;
  }
  const pending = await pendingMigrations(dataSource);
  if (pending.length > 0) throw new StartupError(databaseBehindMessage(pending));
  logger.log('Database up to date (MIGRATE_ON_START=off)');
}
