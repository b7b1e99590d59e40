import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Client, type QueryResultRow } from 'pg';
import {
  EmbeddedPostgresServer,
  type PostgresExit,
  PostgresStoppedError,
} from '../src/infra/database/embedded-postgres.js';
import { deadPid, processesMentioning } from './support/processes.js';
import { makeTempDir, startThrowawayPostgres } from './support/throwaway-postgres.js';

async function query<Row extends QueryResultRow>(
  server: EmbeddedPostgresServer,
  sql: string,
): Promise<Row[]> {
  const client = new Client(server.url('termpaste'));
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The uid and gid PostgreSQL runs as: `postgres` when we are root, else ours. */
async function postgresUserIds(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const id = async (flag: string) => Number((await promisify(execFile)('id', [flag, 'postgres'])).stdout);
  return { uid: await id('-u'), gid: await id('-g') };
}

/** Whether a process runs (a zombie, ended but not reaped yet, does not). */
function runs(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(50);
  }
}

describe('embedded PostgreSQL', () => {
  let tempDir: string;
  let dir: string;
  let server: EmbeddedPostgresServer | undefined;

  beforeAll(async () => {
    tempDir = await makeTempDir('termpaste-embedded-pg-');
    dir = path.join(tempDir, 'pg');
  });

  afterEach(async () => {
    await server?.stop();
  });

  afterAll(async () => {
    await rm(tempDir, { recursive: true, force: true });
  });

  it('initialises a cluster on first start, on 127.0.0.1 only, with a private password', async () => {
    server = await startThrowawayPostgres(dir);
    expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
    expect(statSync(`${dir}.password`).mode & 0o777).toBe(0o600);
    expect(server.url()).toMatch(
      new RegExp(`^postgresql://postgres:[^@]+@127\\.0\\.0\\.1:${server.port}/postgres$`),
    );

    await server.createDatabaseIfMissing('termpaste');
    await server.createDatabaseIfMissing('termpaste'); // idempotent
    const [settings] = await query<{ listen: string; encoding: string }>(
      server,
      "SELECT current_setting('listen_addresses') AS listen, current_setting('server_encoding') AS encoding",
    );
    expect(settings).toEqual({ listen: '127.0.0.1', encoding: 'UTF8' });
  });

  it('keeps data across a stop and a start, and leaves no process behind', async () => {
    server = await startThrowawayPostgres(dir);
    await server.createDatabaseIfMissing('termpaste');
    await query(server, 'CREATE TABLE IF NOT EXISTS kept (note text)');
    await query(server, "INSERT INTO kept VALUES ('survives a restart')");

    await server.stop();
    await server.stop(); // idempotent
    expect(server.isRunning).toBe(false);
    expect(await processesMentioning(dir)).toEqual([]);
    expect(existsSync(path.join(dir, 'postmaster.pid'))).toBe(false);

    server = await startThrowawayPostgres(dir);
    expect(await query(server, 'SELECT note FROM kept')).toEqual([{ note: 'survives a restart' }]);
  });

  it('starts over a postmaster.pid left behind by a dead process', async () => {
    server = await startThrowawayPostgres(dir);
    const lockFile = await readFile(path.join(dir, 'postmaster.pid'), 'utf8');
    await server.stop();

    // What a crash leaves: the lock file of a server whose process is gone.
    const pid = await deadPid();
    await writeFile(path.join(dir, 'postmaster.pid'), lockFile.replace(/^\d+/, String(pid)));

    server = await startThrowawayPostgres(dir);
    expect(await query(server, 'SELECT note FROM kept')).toEqual([{ note: 'survives a restart' }]);
  });

  it('starts over a postmaster.pid whose pid now belongs to another program', async () => {
    server = await startThrowawayPostgres(dir);
    const lockFile = await readFile(path.join(dir, 'postmaster.pid'), 'utf8');
    await server.stop();

    // Owned by the user PostgreSQL runs as, so PostgreSQL itself would take it for a live server.
    const other = spawn('sleep', ['60'], { ...(await postgresUserIds()), stdio: 'ignore' });
    try {
      await writeFile(path.join(dir, 'postmaster.pid'), lockFile.replace(/^\d+/, String(other.pid)));
      server = await startThrowawayPostgres(dir);
      expect(await query(server, 'SELECT note FROM kept')).toEqual([{ note: 'survives a restart' }]);
    } finally {
      other.kill();
    }
  });

  it('stops a PostgreSQL orphaned by a killed run, then starts', async () => {
    server = await startThrowawayPostgres(dir);
    const argv = (await readFile(`/proc/${server.pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
    await server.stop();

    // What `kill -9` of Termpaste leaves: its PostgreSQL still running, adopted by init.
    const launcher = spawn('sh', ['-c', '"$@" >/dev/null 2>&1 &', 'sh', ...argv], {
      ...(await postgresUserIds()),
      stdio: 'ignore',
    });
    await new Promise((resolve) => launcher.once('exit', resolve));
    const orphan = await waitFor(async () =>
      (await processesMentioning(dir)).find((p) => p.cmdline.startsWith(argv[0]!)),
    );
    const parentPid = Number(
      (await readFile(`/proc/${orphan.pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[1],
    );
    if (parentPid !== 1) {
      process.kill(orphan.pid, 'SIGINT');
      console.warn(`skipped: orphans are adopted by pid ${parentPid} here, not by init`);
      return;
    }
    await waitFor(async () => existsSync(path.join(dir, 'postmaster.pid')) || undefined);

    server = await startThrowawayPostgres(dir);
    expect((await processesMentioning(dir)).map((p) => p.pid)).not.toContain(orphan.pid);
    expect(await query(server, 'SELECT note FROM kept')).toEqual([{ note: 'survives a restart' }]);
  });

  it('refuses to start on a data directory another live PostgreSQL is serving', async () => {
    server = await startThrowawayPostgres(dir);
    await expect(startThrowawayPostgres(dir)).rejects.toThrow(
      `PostgreSQL (pid ${server.pid}) is already running on ${dir}`,
    );
    expect(server.isRunning).toBe(true);
    expect(await query(server, 'SELECT count(*)::int AS n FROM kept')).toEqual([{ n: 1 }]);
  });

  it('tells when its process ends on its own (not on stop()), and restarts on the same port', async () => {
    server = await startThrowawayPostgres(dir);
    const exits: PostgresExit[] = [];
    server.onUnexpectedExit((exit) => exits.push(exit));
    const { port } = server;
    const oldPid = server.pid!;

    process.kill(oldPid, 'SIGKILL');
    await waitFor(async () => exits[0]);
    expect(exits).toEqual([{ code: null, signal: 'SIGKILL' }]);
    expect(server.isRunning).toBe(false);

    await server.restart();
    expect(server.isRunning).toBe(true);
    expect(server.pid).not.toBe(oldPid);
    expect(server.port).toBe(port);
    expect(await query(server, 'SELECT note FROM kept')).toEqual([{ note: 'survives a restart' }]);

    await server.stop();
    expect(exits).toHaveLength(1);
    await expect(server.restart()).rejects.toThrow(PostgresStoppedError);
    expect(server.isRunning).toBe(false);
  });

  it('restarts after a kill -9 of its postmaster while a backend is busy: the leftover backend is ended', async () => {
    server = await startThrowawayPostgres(dir);
    const busy = new Client(server.url('termpaste'));
    busy.on('error', () => undefined);
    await busy.connect();
    let backendPid = 0;
    try {
      // In the WAL before it is acknowledged (throwaway clusters commit asynchronously otherwise).
      await busy.query('SET synchronous_commit = on');
      await busy.query("INSERT INTO kept VALUES ('committed before the crash')");
      backendPid = (await busy.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      // An endless loop: a backend notices its postmaster's death only when it next waits for something.
      const running = busy.query('DO $$ BEGIN LOOP END LOOP; END $$').catch((e: Error) => e);
      await sleep(200);
      process.kill(server.pid!, 'SIGKILL');
      await waitFor(async () => !server!.isRunning || undefined);
      expect(runs(backendPid)).toBe(true);

      const started = Date.now();
      await server.restart();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(runs(backendPid)).toBe(false);
      expect(await running).toBeInstanceOf(Error);
      expect(await query(server, 'SELECT note FROM kept ORDER BY note')).toEqual([
        { note: 'committed before the crash' },
        { note: 'survives a restart' },
      ]);
    } finally {
      // Never left spinning, even when the test fails.
      if (
        backendPid &&
        runs(backendPid) &&
        readFileSync(`/proc/${backendPid}/cmdline`, 'utf8').startsWith('postgres')
      )
        process.kill(backendPid, 'SIGKILL');
      await busy.end().catch(() => undefined);
    }
  });

  it('reports why PostgreSQL could not start', async () => {
    await expect(startThrowawayPostgres(dir, { settings: { shared_buffers: 'lots' } })).rejects.toThrow(
      /exited during start-up[\s\S]*shared_buffers/,
    );
    expect(await processesMentioning(dir)).toEqual([]);
  });

  (process.getuid?.() === 0 ? it : it.skip)(
    'as root, says plainly when the postgres user cannot reach the data folder',
    async () => {
      const locked = path.join(tempDir, 'locked');
      await mkdir(locked, { mode: 0o700 });
      await chmod(locked, 0o700);
      await expect(startThrowawayPostgres(path.join(locked, 'data', 'pg'))).rejects.toThrow(
        `cannot enter ${locked}. Set DATA_DIR to a folder it can reach`,
      );
    },
  );
});
