// Real processes on loopback for the suites that run the whole stack (scripts/test-prod.mjs, reliability/):
// a child process with its output kept (Proc), PostgreSQL from Debian's packages (initdb + postgres in a
// temporary folder), redis-server, an SMTP listener, and the waiting and port helpers they share.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The backend's own dependencies (ws, pg, ioredis, smtp-server), wherever npm put them. */
export const backendRequire = createRequire(join(root, 'backend', 'package.json'));
const { SMTPServer } = backendRequire('smtp-server');
const pg = backendRequire('pg');
const { Redis } = backendRequire('ioredis');

const isRoot = process.getuid?.() === 0;
export const DB_PASSWORD = 'smoke-db-password';

// ---------------------------------------------------------------------------------------------- helpers

export class CheckFailed extends Error {}

export function assert(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

/** Polls `probe` until it returns something truthy; fails naming `what` after `timeoutMs`. */
export async function waitFor(what, probe, timeoutMs = 15_000, intervalMs = 100) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new CheckFailed(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${lastError.message})` : ''}`,
      );
    }
    await sleep(intervalMs);
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** uid and gid of a system user (`id`), for running PostgreSQL as `postgres` when we are root. */
export function systemUser(name) {
  const id = (flag) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error(`no system user "${name}"`);
  return { uid, gid };
}

// ------------------------------------------------------------------------------------------- processes

export const processes = new Set();
/** Set once cleanup began (a signal, or the end): no process may start after it. */
let stopping = false;
/** No process may start from now on (cleanup began). */
export function stopStarting() {
  stopping = true;
}

/** A child process whose output goes to a log file and is kept for the checks to read. */
export class Proc {
  constructor(name, command, args, { env, cwd = root, uid, gid, logDir }) {
    if (stopping) throw new CheckFailed(`not starting ${name}: stopping`);
    this.name = name;
    this.output = '';
    this.logFile = join(logDir, `${name}.log`);
    const file = createWriteStream(this.logFile, { flags: 'a' });
    this.child = spawn(command, args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(uid === undefined ? {} : { uid, gid }),
    });
    const keep = (chunk) => {
      this.output += chunk.toString('utf8');
      file.write(chunk);
    };
    this.child.stdout.on('data', keep);
    this.child.stderr.on('data', keep);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        processes.delete(this);
        file.end();
        resolve({ code, signal });
      }),
    );
    this.child.once('error', (error) => {
      this.output += `\n[spawn error] ${error.message}\n`;
    });
    processes.add(this);
  }

  get running() {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends `signal`, waits up to `timeoutMs` for the exit, then SIGKILL. */
  async stop(signal = 'SIGTERM', timeoutMs = 15_000) {
    if (!this.running) return this.exited;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  tail(lines = 30) {
    return this.output.trimEnd().split('\n').slice(-lines).join('\n');
  }
}

/** Fails when `proc` exits before `ready` resolves; so a crash at start-up reads as one. */
export async function startedWhile(proc, what, ready) {
  const crashed = proc.exited.then(({ code, signal }) => {
    throw new CheckFailed(`${proc.name} exited (${code ?? signal}) while ${what}:\n${proc.tail()}`);
  });
  return Promise.race([ready, crashed]);
}

// --------------------------------------------------------------------------------------------- services

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

/**
 * redis-server in <tmp>/redis. `port` given: on that port again, with the append-only file a previous
 * start left (a restart).
 */
export async function startRedis(tools, tmp, logDir, { port: reuse } = {}) {
  const dir = join(tmp, 'redis');
  mkdirSync(dir, { recursive: true });
  const port = reuse ?? (await freePort());
  // As docker-compose.yml runs it: jobs in an append-only file, never evicted.
  const proc = new Proc(
    'redis',
    tools.redisServer,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory-policy',
      'noeviction',
      '--save',
      '',
      '--daemonize',
      'no',
    ],
    { env: { PATH: process.env.PATH }, logDir },
  );
  const url = `redis://127.0.0.1:${port}`;
  await startedWhile(
    proc,
    'starting',
    waitFor(
      'Redis to answer PING',
      async () => {
        const client = new Redis(url, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        // A refused connection rejects connect(), which is what this wait retries; the same refusal as
        // an 'error' event would be printed as unhandled.
        client.on('error', () => undefined);
        try {
          await client.connect();
          return (await client.ping()) === 'PONG';
        } finally {
          client.disconnect();
        }
      },
      15_000,
      100,
    ),
  );
  return { proc, port, url };
}

/** An SMTP listener (npm `smtp-server`) that keeps every message it receives. */
export async function startSmtp() {
  const received = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.server.address();
  return {
    received,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The text of a mail (headers and decoded parts): quoted-printable and base64 bodies undone. */
export function mailText(raw) {
  const unfolded = raw.replace(/\r\n/g, '\n');
  const quotedPrintable = unfolded
    .replace(/=\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
  const base64Parts = [
    ...unfolded.matchAll(/content-transfer-encoding:\s*base64\s*\n(?:[^\n]+\n)*\n([A-Za-z0-9+/=\n]+)/gi),
  ]
    .map((m) => Buffer.from(m[1].replace(/\n/g, ''), 'base64').toString('utf8'))
    .join('\n');
  return `${quotedPrintable}\n${base64Parts}`;
}
