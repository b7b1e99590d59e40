// `termpaste backup` of the stack's database (Debian's PostgreSQL, after the steps before made data), then
// `termpaste restore` into a new embedded PostgreSQL (another major version): every row the same.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { backendRequire, root } from '../../harness/paths.mjs';
import { assert, freePort } from '../../harness/wait.mjs';
import { log, SESSION_SECRET } from './context.mjs';

const pg = backendRequire('pg');
const run = promisify(execFile);
const CLI = join(root, 'backend', 'dist', 'cli.js');

/** Every table's rows as ordered JSON text, by table, and the server's major version. */
async function snapshot(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY 1`,
    );
    const result = {};
    for (const { name } of tables) {
      const { rows } = await client.query(
        `SELECT coalesce(json_agg(to_jsonb(x) ORDER BY to_jsonb(x)::text), '[]')::text AS rows
           FROM ${client.escapeIdentifier(name)} x`,
      );
      result[name] = rows[0].rows;
    }
    const { rows } = await client.query("SELECT current_setting('server_version_num')::int / 10000 AS major");
    return { tables: result, major: rows[0].major };
  } finally {
    await client.end();
  }
}

async function cli(args, env) {
  try {
    return (await run(process.execPath, [CLI, ...args], { env, cwd: root, timeout: 120_000 })).stdout;
  } catch (error) {
    throw new Error(`termpaste ${args.join(' ')} failed: ${error.stderr || error.message}`, {
      cause: error,
    });
  }
}

export const backupRestore = {
  name:
    'termpaste backup of the PostgreSQL 15 database restores into an empty embedded PostgreSQL 18 and ' +
    'into an empty database on PostgreSQL 15',
  async run(env, { tmp }) {
    const started = Date.now();
    const source = env.postgres.url;
    const backendEnv = { ...env.backendEnv, DATA_DIR: join(tmp, 'api1') };
    const archive = join(tmp, 'backup.zip');
    // The stack is idle by now; a job finishing meanwhile would change a row: then back up again.
    let before;
    for (let attempt = 1; ; attempt++) {
      before = await snapshot(source);
      await cli(['backup', '--out', archive], backendEnv);
      const after = await snapshot(source);
      if (JSON.stringify(after) === JSON.stringify(before)) break;
      assert(attempt < 3, 'the database kept changing while it was backed up');
    }
    const users = JSON.parse(before.tables.users ?? '[]');
    assert(users.length >= 2, `the steps before made ${users.length} users: nothing much to back up`);

    const dataDir = join(tmp, 'restored');
    mkdirSync(dataDir, { mode: 0o755 });
    const port = await freePort();
    const embeddedEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? tmp,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(port),
      SESSION_SECRET,
    };
    const restored = await cli(['restore', archive], embeddedEnv);
    assert(/^Restored .* \d+ tables, \d+ rows/m.test(restored), `restore printed: ${restored}`);

    const { EmbeddedPostgresServer } = await import(
      pathToFileURL(join(root, 'backend', 'dist', 'infra', 'database', 'embedded-postgres.js')).href
    );
    const server = await EmbeddedPostgresServer.start({ dir: join(dataDir, 'pg'), port });
    try {
      const copy = await snapshot(server.url('termpaste'));
      assert(before.major !== copy.major, `both PostgreSQL ${copy.major}: not across versions`);
      const names = Object.keys(before.tables);
      assert(
        JSON.stringify(Object.keys(copy.tables)) === JSON.stringify(names),
        `tables differ: ${names} vs ${Object.keys(copy.tables)}`,
      );
      for (const name of names) {
        assert(copy.tables[name] === before.tables[name], `table ${name} differs after the restore`);
      }
      // And back onto Debian's PostgreSQL: a new, empty database on the stack's server.
      const admin = new pg.Client({ connectionString: source.replace(/\/[^/]*$/, '/postgres') });
      await admin.connect();
      await admin.query('CREATE DATABASE restored').finally(() => admin.end());
      const external = source.replace(/\/[^/]*$/, '/restored');
      const externalDir = join(tmp, 'restored-external');
      mkdirSync(externalDir, { mode: 0o755 });
      await cli(['restore', archive], { ...backendEnv, DATABASE_URL: external, DATA_DIR: externalDir });
      const again = await snapshot(external);
      for (const name of names) {
        assert(
          again.tables[name] === before.tables[name],
          `table ${name} differs after the restore into ${again.major}`,
        );
      }
      log(
        `backup of PostgreSQL ${before.major} (${users.length} users, ${names.length} tables) restored into ` +
          `PostgreSQL ${copy.major} and into a new database on ${before.major}, with every row the same, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    } finally {
      await server.stop();
    }
  },
};
