// PostgreSQL from Debian's packages: initdb and postgres in a temporary folder, on a free loopback port,
// as the `postgres` user when we are root (PostgreSQL refuses to run as root).
import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backendRequire } from './paths.mjs';
import { Proc, startedWhile, systemUser } from './proc.mjs';
import { freePort, waitFor } from './wait.mjs';

const pg = backendRequire('pg');
const isRoot = process.getuid?.() === 0;
export const DB_PASSWORD = 'smoke-db-password';

export async function startPostgres(tools, tmp, logDir) {
  const dir = join(tmp, 'pg');
  const data = join(dir, 'data');
  mkdirSync(dir, { mode: 0o700 });
  const user = isRoot ? systemUser('postgres') : {};
  if (isRoot) chownSync(dir, user.uid, user.gid);
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${DB_PASSWORD}\n`, { mode: 0o600 });
  if (isRoot) chownSync(pwfile, user.uid, user.gid);

  const initdb = spawnSync(
    join(tools.postgresBin, 'initdb'),
    ['-D', data, '-U', 'termpaste', '--pwfile', pwfile, '--auth=scram-sha-256', '-E', 'UTF8', '--no-locale'],
    { encoding: 'utf8', ...(isRoot ? { uid: user.uid, gid: user.gid } : {}) },
  );
  writeFileSync(join(logDir, 'initdb.log'), `${initdb.stdout}\n${initdb.stderr}`);
  if (initdb.status !== 0) throw new Error(`initdb failed (${initdb.status}):\n${initdb.stderr}`);

  const port = await freePort();
  const proc = new Proc(
    'postgres',
    join(tools.postgresBin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      // A throwaway cluster: durability off, speed on.
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      // A backend whose client died (the SIGKILLed worker) notices within a second, even mid-query, and
      // rolls its transaction back, as a production server with this setting would.
      '-c',
      'client_connection_check_interval=1000',
    ],
    { env: { PATH: process.env.PATH, LANG: 'C' }, logDir, ...user },
  );
  const url = (db) => `postgres://termpaste:${DB_PASSWORD}@127.0.0.1:${port}/${db}`;
  await startedWhile(
    proc,
    'starting',
    waitFor(
      'PostgreSQL to accept connections',
      async () => {
        const client = new pg.Client({ connectionString: url('postgres') });
        await client.connect();
        await client.end();
        return true;
      },
      30_000,
      200,
    ),
  );
  const admin = new pg.Client({ connectionString: url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE termpaste');
  await admin.end();
  return { proc, port, url: url('termpaste') };
}
