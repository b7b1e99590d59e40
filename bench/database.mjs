// The database of each size: seeded once by SQL into a template database, then a fresh copy of it for
// every run, in the embedded PostgreSQL under bench/.data or on the server of DATABASE_URL.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { root } from '../harness/paths.mjs';
import { freePort } from '../harness/wait.mjs';
import { seed } from './seed.mjs';
import { dataRoot, ensureDir, label, log, SEED_VERSION } from './settings.mjs';

async function seededTemplate(admin, templateUrl, pastes) {
  const template = `bench_v${SEED_VERSION}_${pastes}`;
  const { rows } = await admin.query('SELECT datname FROM pg_database WHERE datname LIKE $1', ['bench_v%']);
  for (const { datname } of rows) {
    if (datname !== template && datname.endsWith(`_${pastes}`))
      await admin.query(`DROP DATABASE "${datname}"`);
  }
  if (rows.some((r) => r.datname === template)) {
    log(`  ${label(pastes)} pastes: seeded template ${template} found, reused`);
    return template;
  }
  log(`  seeding ${pastes.toLocaleString('en')} pastes (${template}); this is done once and reused`);
  await admin.query('DROP DATABASE IF EXISTS bench_seeding WITH (FORCE)');
  await admin.query('CREATE DATABASE bench_seeding');
  const { DataSource } = await import('typeorm');
  const { dataSourceOptions } = await import(
    pathToFileURL(join(root, 'backend/dist/infra/database/data-source.options.js')).href
  );
  const { migrateUnderLock } = await import(
    pathToFileURL(join(root, 'backend/dist/infra/database/migrate.js')).href
  );
  const { ENTITIES } = await import(pathToFileURL(join(root, 'backend/dist/entities.js')).href);
  const migrated = new DataSource(dataSourceOptions(templateUrl('bench_seeding'), { entities: ENTITIES }));
  await migrated.initialize();
  await migrateUnderLock(migrated);
  await migrated.destroy();
  const { hash } = await import('@node-rs/argon2');
  const pool = new pg.Pool({
    connectionString: templateUrl('bench_seeding'),
    max: 2,
    // Seeding is redone from scratch if it fails: no need to wait for each commit to reach the disk.
    // The tag triggers off: the seed writes paste_tags and the tags' counts itself, in bulk.
    options:
      '-c synchronous_commit=off -c maintenance_work_mem=1GB -c work_mem=256MB -c termpaste.tag_triggers=off',
  });
  try {
    await seed(pool, pastes, { log, passwordHash: await hash(randomBytes(16).toString('hex')) });
  } finally {
    await pool.end();
  }
  await admin.query(`ALTER DATABASE bench_seeding RENAME TO ${template}`);
  return template;
}

/**
 * The database of one size, fresh from its seeded template (seeded on first use): in the embedded
 * PostgreSQL under bench/.data/<size> (the app starts it, as `npm start` does), or next to DATABASE_URL's.
 */
export async function prepareDatabase(pastes) {
  const external = process.env.DATABASE_URL;
  if (external) {
    const url = (db) => {
      const u = new URL(external);
      u.pathname = `/${db}`;
      return u.toString();
    };
    const admin = new pg.Client({ connectionString: external });
    await admin.connect();
    try {
      const template = await seededTemplate(admin, url, pastes);
      const working = `termpaste_bench_${pastes}`;
      await admin.query(`DROP DATABASE IF EXISTS ${working} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${working} TEMPLATE ${template}`);
      const dataDir = join(dataRoot, 'external');
      ensureDir(dataDir);
      return {
        sqlUrl: url(working),
        env: {
          DATABASE_URL: url(working),
          SESSION_SECRET: randomBytes(32).toString('hex'),
          DATA_DIR: dataDir,
        },
      };
    } finally {
      await admin.end();
    }
  }
  const { EmbeddedPostgresServer } = await import(
    pathToFileURL(join(root, 'backend/dist/infra/database/embedded-postgres.js')).href
  );
  const dataDir = join(dataRoot, label(pastes));
  ensureDir(dataDir);
  const server = await EmbeddedPostgresServer.start({ dir: join(dataDir, 'pg'), detached: false });
  try {
    const admin = new pg.Client({ connectionString: server.url() });
    await admin.connect();
    try {
      const template = await seededTemplate(admin, (db) => server.url(db), pastes);
      await admin.query('DROP DATABASE IF EXISTS termpaste WITH (FORCE)');
      await admin.query(`CREATE DATABASE termpaste TEMPLATE ${template} STRATEGY FILE_COPY`);
    } finally {
      await admin.end();
    }
  } finally {
    await server.stop();
  }
  const pgPort = await freePort();
  const password = readFileSync(join(dataDir, 'pg.password'), 'utf8').trim();
  return {
    sqlUrl: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/termpaste`,
    env: { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) },
  };
}
