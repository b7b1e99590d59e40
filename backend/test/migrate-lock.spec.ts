import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { bootstrap } from '../src/bootstrap.js';
import { runCli } from '../src/cli/admin-cli.js';
import { ENTITIES } from '../src/entities.js';
import { freePort } from '../src/infra/free-port.js';
import { dataSourceOptions } from '../src/infra/database/data-source.options.js';
import {
  databaseBehindMessage,
  MIGRATIONS_LOCK_KEY,
  migrateUnderLock,
} from '../src/infra/database/migrate.js';
import { MIGRATIONS } from '../src/infra/database/migrations/index.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { databaseUrl, withAdminClient } from './support/postgres.js';
import { TEST_SESSION_SECRET } from './support/test-app.js';
import { makeTempDir } from './support/throwaway-postgres.js';

// TypeORM names a migration by its class.
const NAMES = MIGRATIONS.map((migration) => (migration as { name: string }).name);

/** A database with nothing in it (not a copy of the migrated template). */
async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `empty_${randomBytes(6).toString('hex')}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE ${name}`));
  return {
    url: databaseUrl(name),
    drop: async () => {
      await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function applied(url: string): Promise<string[]> {
  const client = new Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

async function cli(env: Record<string, string>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { env, out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('migrations under an advisory lock', () => {
  it('two processes starting together on an empty database migrate once: the second waits, then finds nothing to do', async () => {
    const database = await emptyDatabase();
    const sources = [0, 1].map(
      () => new DataSource(dataSourceOptions(database.url, { entities: ENTITIES, poolSize: 2 })),
    );
    const holder = new Client(database.url);
    try {
      await Promise.all(sources.map((source) => source.initialize()));
      // Someone holds the lock: neither may start until it is let go.
      await holder.connect();
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATIONS_LOCK_KEY]);
      let settled = 0;
      const racing = sources.map((source) =>
        migrateUnderLock(source).finally(() => {
          settled += 1;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const { rows } = await holder.query<{ waiting: number }>(
        "SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
      );
      expect({ settled, waiting: rows[0]!.waiting }).toEqual({ settled: 0, waiting: 2 });
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATIONS_LOCK_KEY]);

      const results = await Promise.all(racing);
      expect(results.map((names) => names.length).sort((a, b) => a - b)).toEqual([0, NAMES.length]);
      expect(results.flat()).toEqual(NAMES);
      expect(await applied(database.url)).toEqual(NAMES);
    } finally {
      await holder.end().catch(() => undefined);
      await Promise.all(sources.map((source) => source.destroy().catch(() => undefined)));
      await database.drop();
    }
  });

  it('MIGRATE_ON_START=off: the API and the CLI refuse a database that is behind; `migrate` and `migrate --check`', async () => {
    const database = await emptyDatabase();
    const dataDir = await makeTempDir('termpaste-migrate-');
    const env = { DATABASE_URL: database.url, SESSION_SECRET: TEST_SESSION_SECRET, MIGRATE_ON_START: 'off' };
    try {
      await expect(
        bootstrap({
          env: {
            ...env,
            PORT: String(await freePort()),
            HOST: '127.0.0.1',
            DATA_DIR: dataDir,
            FRONTENDS_DIR: path.join(dataDir, 'web'),
          },
          logger: new CapturingLogger(),
          handleSignals: false,
        }),
      ).rejects.toThrow(databaseBehindMessage(NAMES));

      expect(await cli(env, 'make-admin', 'neo')).toEqual({
        code: 1,
        out: '',
        err: databaseBehindMessage(NAMES),
      });
      expect(await cli(env, 'migrate', '--check')).toEqual({
        code: 1,
        out: '',
        err: `The database is behind: ${NAMES.length} pending migrations\n${NAMES.map((name) => `  ${name}`).join('\n')}`,
      });

      expect(await cli(env, 'migrate')).toEqual({
        code: 0,
        out: `Applied ${NAMES.length} migrations: ${NAMES.join(', ')}`,
        err: '',
      });
      expect(await cli(env, 'migrate', '--check')).toEqual({
        code: 0,
        out: 'The database is up to date',
        err: '',
      });
      expect(await cli(env, 'migrate')).toEqual({ code: 0, out: 'Database up to date', err: '' });
      expect(await applied(database.url)).toEqual(NAMES);
      expect(await cli(env, 'migrate', 'now')).toMatchObject({ code: 2, out: '' });
    } finally {
      await database.drop();
    }
  });
});
