// Termpaste as `npm start` runs it (backend/dist/main.js after the build) on the embedded PostgreSQL, in a
// DATA_DIR of the scenario's own, on free loopback ports: started, killed with SIGKILL, started again on
// the same folder and port.
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { backendRequire, root } from '../../harness/paths.mjs';
import { Proc, startedWhile } from '../../harness/proc.mjs';
import { freePort, waitFor } from '../../harness/wait.mjs';

const pg = backendRequire('pg');

export const SESSION_SECRET = 'reliability-session-secret-0123456789abcdef';

/** A throwaway folder the `postgres` user may enter (PostgreSQL runs as it when we are root). */
export function scratchDir(name) {
  const dir = mkdtempSync(join(os.tmpdir(), `termpaste-${name}-`));
  chmodSync(dir, 0o755);
  return dir;
}

export class App {
  /**
   * @param {object} options
   * @param {string} options.name  the log's name
   * @param {string} options.dataDir  DATA_DIR (the embedded PostgreSQL lives in <dataDir>/pg)
   * @param {Record<string,string>} [options.env]  on top of the defaults (e.g. DATABASE_URL, REDIS_URL)
   * @param {string} [options.entry]  backend/dist/main.js, or main.worker.js
   */
  constructor({ name, dataDir, env = {}, entry = 'main.js' }) {
    this.name = name;
    this.dataDir = dataDir;
    this.extraEnv = env;
    this.entry = entry;
    this.starts = 0;
    this.proc = undefined;
  }

  /** Chooses the ports once: a restart keeps them, as a supervisor restarting `npm start` would. */
  async ports() {
    this.port ??= await freePort();
    this.pgPort ??= await freePort();
    this.url = `http://127.0.0.1:${this.port}`;
    return this;
  }

  env() {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? this.dataDir,
      HOST: '127.0.0.1',
      PORT: String(this.port),
      PUBLIC_URL: this.url,
      DATA_DIR: this.dataDir,
      EMBEDDED_PG_PORT: String(this.pgPort),
      SESSION_SECRET,
      LOG_LEVEL: 'warn',
      // One client address sends every member's writes: the per-address limits would answer most with 429.
      RATE_LIMITS: 'off',
      // Nor hold its members' many alike posts as spam (copies, bursts from new accounts).
      MODERATION_NEW_MEMBER_POSTS: '0',
      MODERATION_DUPLICATE_ACCOUNTS: '1000',
      MODERATION_BURST_POSTS: '10000',
      ...(this.isWorker ? { WORKER_HEALTH_PORT: String(this.port) } : {}),
      ...this.extraEnv,
    };
  }

  /** A queue worker (main.worker.js) answers GET /ready on its WORKER_HEALTH_PORT; the API /api/ready. */
  get isWorker() {
    return this.entry === 'main.worker.js';
  }

  async start() {
    await this.ports();
    const entry = join(root, 'backend/dist', this.entry);
    if (!existsSync(entry)) throw new Error(`${entry} is missing: build first (npx nx run-many -t build)`);
    this.starts += 1;
    const logDir = join(this.dataDir, '..');
    this.proc = new Proc(`${this.name}-${this.starts}`, process.execPath, [entry], {
      env: this.env(),
      logDir,
    });
    const started = Date.now();
    await startedWhile(
      this.proc,
      'starting',
      waitFor(
        `${this.name} to be ready`,
        () => fetch(`${this.url}${this.isWorker ? '/ready' : '/api/ready'}`).then((r) => r.ok),
        120_000,
        100,
      ),
    );
    this.startedInMs = Date.now() - started;
    return this;
  }

  /** SIGKILL, as a crash or the OOM killer: no shutdown hook runs. */
  async kill9() {
    this.proc.child.kill('SIGKILL');
    await this.proc.exited;
  }

  async stop() {
    if (this.proc?.running) await this.proc.stop('SIGINT', 30_000);
  }

  /** The embedded PostgreSQL's postmaster pid, from its postmaster.pid (line 1). */
  postmasterPid() {
    return Number(readFileSync(join(this.dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  /** A pg pool on the embedded database, as the app's own (the password is in DATA_DIR/pg.password). */
  sql() {
    if (this.extraEnv.DATABASE_URL)
      return new pg.Pool({ connectionString: this.extraEnv.DATABASE_URL, max: 4 });
    const password = readFileSync(join(this.dataDir, 'pg.password'), 'utf8').trim();
    return new pg.Pool({
      connectionString: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${this.pgPort}/termpaste`,
      max: 4,
    });
  }

  /** Every mail the app wrote to its outbox folder (embedded mode, no SMTP_URL). */
  outboxMails() {
    const dir = join(this.dataDir, 'outbox');
    if (!existsSync(dir)) return [];
    return readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8'));
  }

  log(lines = 40) {
    return this.proc?.tail(lines) ?? '';
  }
}

/** Removes a scenario's folder (after its processes stopped). */
export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}
