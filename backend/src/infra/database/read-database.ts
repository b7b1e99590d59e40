import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { Counter, Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import type { ReadReplicasConfig } from '../../config/read-replicas.js';
import { Metrics } from '../metrics/metrics.js';
import { TimedClient } from '../metrics/query-time.js';

/**
 * The pool a read runs on while `ReadDatabase.read` routes it to a replica (unset: the primary); `open`
 * ends with the read, so work it left running (a timer, a write not awaited) goes to the primary.
 */
const routed = new AsyncLocalStorage<{ pool: pg.Pool; open: boolean }>();

/** A replica's state: `up` takes reads; `lagging` (behind the bound), `down` and `unknown` do not. */
export type ReplicaState = 'unknown' | 'up' | 'lagging' | 'down';
const STATES: readonly ReplicaState[] = ['unknown', 'up', 'lagging', 'down'];

interface Replica {
  /** Its host, port and database, never its credentials (a metrics label, a log line). */
  name: string;
  pool: pg.Pool;
  state: ReplicaState;
  /** Behind the primary by at most this, at the last check (Infinity: not known). */
  lagMs: number;
  /** It has replayed everything the primary had flushed at this time (performance.now()). */
  caughtUpTo: number;
  checking: boolean;
}

/** One sample of the primary's flushed WAL position, taken just before `at` (performance.now()). */
interface PrimarySample {
  at: number;
  lsn: bigint;
}

/**
 * The primary's insert position (its flush position lags behind commits made with synchronous_commit
 * off, which readers already see), with the sizes that tell a bare page header.
 */
const PRIMARY_POSITION = `SELECT pg_current_wal_insert_lsn()::text AS lsn,
  current_setting('wal_block_size')::int AS block,
  (SELECT setting::bigint FROM pg_settings WHERE name = 'wal_segment_size')::text AS segment`;

interface PrimaryReading {
  lsn: string;
  block: number;
  segment: string;
}

/**
 * Where the last WAL record written ends: the insert position, less a page header it points past when
 * nothing was written on its page yet (a standby that replayed everything stops at the page's start).
 */
export function lastRecordEnd({ lsn, block, segment }: PrimaryReading): bigint {
  const insert = parseLsn(lsn);
  const offset = insert % BigInt(block);
  // A page's short header takes 24 bytes; a segment's first page has the long one, 40.
  const header = insert % BigInt(segment) === offset ? 40n : 24n;
  return offset === header ? insert - offset : insert;
}

/** What a replica reports of itself at a check. */
interface ReplicaReading {
  in_recovery: boolean;
  replay_lsn: string | null;
}

/** `X/Y`, PostgreSQL's text of a WAL position, as a number. */
export function parseLsn(text: string): bigint {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** Errors that say the replica went away (or could not serve the read): the read is retried on the primary. */
const REPLICA_FAILURE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  // admin_shutdown, crash_shutdown, cannot_connect_now, connection exceptions
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  // a write reached the standby (read_only_sql_transaction), or its replay cancelled the query
  '25006',
  '40001',
]);
const REPLICA_FAILURE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|connection error/i;

export function isReplicaFailure(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 3; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && REPLICA_FAILURE_CODES.has(code)) return true;
    if (typeof message === 'string' && REPLICA_FAILURE_MESSAGE.test(message)) return true;
    cause = (cause as { driverError?: unknown }).driverError;
  }
  return false;
}

/** host:port/database of a URL, for labels and logs. */
function describe(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('replica check timed out'), { code: 'ETIMEDOUT' })),
      ms,
    );
  });
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}

/**
 * Where reads that may lag a moment run: a replica up and within DATABASE_READ_MAX_LAG_MS, else the
 * primary. Within `read` the primary's pool hands out the replica's connections: no query changes.
 */
@Injectable()
export class ReadDatabase implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReadDatabase');
  private readonly replicas: Replica[];
  /** The primary's recent positions, oldest first, to tell how far behind a replica's replay is. */
  private readonly samples: PrimarySample[] = [];
  /**
   * One connection of its own to the primary, for the checks' position samples: borrowed from the app's
   * pool, a check waited behind a saturated pool's queue and the replicas looked behind the primary.
   */
  private primaryCheck: pg.Pool | undefined;
  private timer: NodeJS.Timeout | undefined;
  private next = 0;
  private readonly reads: Counter<'target'>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: ReadReplicasConfig,
    metrics: Metrics,
    poolSize: number | undefined,
  ) {
    this.replicas = config.urls.map((url, index) => ({
      name:
        config.urls.length > 1 && config.urls.map(describe).filter((n) => n === describe(url)).length > 1
          ? `${describe(url)}#${index + 1}`
          : describe(url),
      pool: replicaPool(url, poolSize),
      state: 'unknown',
      lagMs: Infinity,
      caughtUpTo: -Infinity,
      checking: false,
    }));
    this.reads = new Counter({
      name: 'termpaste_db_reads_total',
      help: 'Reads that may lag (the page cache loads, tags), by where they ran: replica, primary, or fallback (a replica read it failed, run again on the primary)',
      labelNames: ['target'],
      registers: [metrics.registry],
    });
    const replicas = this.replicas;
    new Gauge({
      name: 'termpaste_db_read_replica_state',
      help: 'Each read replica (DATABASE_READ_URL): 1 for its current state (up takes reads; lagging, down, unknown do not)',
      labelNames: ['replica', 'state'],
      registers: [metrics.registry],
      collect() {
        this.reset();
        for (const replica of replicas) {
          for (const state of STATES)
            this.set({ replica: replica.name, state }, replica.state === state ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'termpaste_db_read_replica_lag_seconds',
      help: 'How far each read replica was behind the primary at its last check (absent: not known)',
      labelNames: ['replica'],
      registers: [metrics.registry],
      collect() {
        this.reset();
        for (const replica of replicas) {
          if (Number.isFinite(replica.lagMs)) this.set({ replica: replica.name }, replica.lagMs / 1000);
        }
      },
    });
  }

  /** Whether any replica is configured. */
  get enabled(): boolean {
    return this.replicas.length > 0;
  }

  /** Each replica's name and state, for the readiness answer and tests. */
  states(): Array<{ name: string; state: ReplicaState; lagMs: number }> {
    return this.replicas.map(({ name, state, lagMs }) => ({ name, state, lagMs }));
  }

  onModuleInit(): void {
    if (!this.enabled) return;
    const driver = this.dataSource.driver as unknown as { master: pg.Pool & { options: pg.PoolConfig } };
    this.primaryCheck = checkPool(driver.master.options);
    driver.master = routedPool(driver.master);
    void this.check();
    this.timer = setInterval(() => void this.check(), this.config.checkMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const pools = [...this.replicas.map((replica) => replica.pool), this.primaryCheck];
    this.primaryCheck = undefined;
    await Promise.all(pools.map((pool) => pool?.end().catch(() => undefined)));
  }

  /**
   * Runs `load` on a replica that is up and has replayed what the primary had at `since` (performance.now(),
   * a page cache's last invalidation), else on the primary (always with `primary`: a member who just
   * wrote); run again on the primary if the replica goes away. Never for writes nor permission checks.
   */
  async read<T>(load: () => Promise<T>, { primary = false, since = -Infinity } = {}): Promise<T> {
    const replica = primary ? undefined : this.pick(since);
    if (!replica) {
      if (this.enabled) this.reads.inc({ target: 'primary' });
      return routed.exit(load);
    }
    this.reads.inc({ target: 'replica' });
    const route = { pool: replica.pool, open: true };
    try {
      return await routed.run(route, load);
    } catch (error) {
      if (!isReplicaFailure(error)) throw error;
      if (replica.state === 'up') {
        this.logger.warn(`Read replica ${replica.name} failed a read, now down: ${String(error)}`);
        replica.state = 'down';
      }
      this.reads.inc({ target: 'fallback' });
      return routed.exit(load);
    } finally {
      route.open = false;
    }
  }

  /** The next replica (in turn) that may serve a read made after `since`, if any. */
  private pick(since: number): Replica | undefined {
    const count = this.replicas.length;
    for (let step = 0; step < count; step++) {
      const replica = this.replicas[(this.next + step) % count]!;
      if (replica.state === 'up' && replica.caughtUpTo >= since) {
        this.next = (this.next + step + 1) % count;
        return replica;
      }
    }
    return undefined;
  }

  /** Samples the primary's position, then reads each replica's replay position against it. */
  private async check(): Promise<void> {
    const pool = this.primaryCheck;
    if (!pool) return;
    const at = performance.now();
    const timeoutMs = Math.max(this.config.checkMs, 1000);
    try {
      const { rows } = await withTimeout(pool.query<PrimaryReading>(PRIMARY_POSITION), timeoutMs);
      this.samples.push({ at, lsn: lastRecordEnd(rows[0]!) });
    } catch {
      // The primary did not answer: no new sample; the replicas' lag grows until it does.
    }
    // Positions older than the bound (and one more check) tell nothing a replica within it needs.
    const keepFrom = at - this.config.maxLagMs - 2 * this.config.checkMs;
    while (this.samples.length > 1 && this.samples[1]!.at < keepFrom) this.samples.shift();
    await Promise.all(this.replicas.map((replica) => this.checkReplica(replica, timeoutMs)));
  }

  private async checkReplica(replica: Replica, timeoutMs: number): Promise<void> {
    if (replica.checking) return;
    replica.checking = true;
    const now = (): number => performance.now();
    try {
      const { rows } = await withTimeout(
        replica.pool.query<ReplicaReading>(
          'SELECT pg_is_in_recovery() AS in_recovery, pg_last_wal_replay_lsn()::text AS replay_lsn',
        ),
        timeoutMs,
      );
      const reading = rows[0]!;
      // Not a standby (the primary's own URL, or a promoted one): as current as the primary.
      const caughtUpTo =
        !reading.in_recovery || reading.replay_lsn === null
          ? (this.samples.at(-1)?.at ?? -Infinity)
          : this.caughtUpTo(parseLsn(reading.replay_lsn));
      replica.caughtUpTo = caughtUpTo;
      replica.lagMs = Math.max(0, now() - caughtUpTo);
      this.become(replica, replica.lagMs <= this.config.maxLagMs ? 'up' : 'lagging');
    } catch (error) {
      replica.lagMs = Infinity;
      this.become(replica, 'down', error);
    } finally {
      replica.checking = false;
    }
  }

  /** The latest time the primary was at or behind `replayed`: the replica has all it had then. */
  private caughtUpTo(replayed: bigint): number {
    for (let index = this.samples.length - 1; index >= 0; index--) {
      const sample = this.samples[index]!;
      if (sample.lsn <= replayed) return sample.at;
    }
    return -Infinity;
  }

  private become(replica: Replica, state: ReplicaState, error?: unknown): void {
    if (replica.state === state) return;
    const was = replica.state;
    replica.state = state;
    const why =
      state === 'lagging'
        ? ` (${Number.isFinite(replica.lagMs) ? `${Math.round(replica.lagMs)} ms` : 'far'} behind, bound ${this.config.maxLagMs} ms)`
        : error
          ? `: ${error instanceof Error ? error.message : String(error)}`
          : '';
    const line = `Read replica ${replica.name}: ${was} -> ${state}${why}`;
    if (state === 'up') this.logger.log(line);
    else this.logger.warn(line);
  }
}

/** A replica's pool, made as the primary's is (data-source.options.ts): timed queries, errors listened to. */
function replicaPool(url: string, max: number | undefined): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    ...(max === undefined ? {} : { max }),
    connectionTimeoutMillis: 5000,
    application_name: 'termpaste',
    Client: TimedClient,
    onConnect: (client: pg.ClientBase) => {
      client.on('error', () => undefined);
    },
  });
  // An idle connection the replica drops: the pool lets it go; the next check says it is down.
  pool.on('error', () => undefined);
  return pool;
}

/** The checks' own connection to the primary: made as the app's pool is, one connection kept open. */
function checkPool(options: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ ...options, max: 1, idleTimeoutMillis: 0 });
  // The primary dropping it (restarted): the pool lets it go; the next check connects again.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * The primary's pool as TypeORM and queryPrepared use it, handing out a replica's connections to the
 * queries of a load `ReadDatabase.read` routed there (`connect` and `query`); all else is the primary's.
 */
function routedPool(primary: pg.Pool): pg.Pool {
  return new Proxy(primary, {
    get(target, property) {
      if (property === 'connect' || property === 'query') {
        return (...args: unknown[]) => {
          const route = routed.getStore();
          const pool = route?.open ? route.pool : target;
          return Reflect.apply(pool[property] as (...given: unknown[]) => unknown, pool, args);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...given: unknown[]) => unknown).bind(target) : value;
    },
  });
}
