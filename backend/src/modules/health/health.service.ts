import { Injectable, type OnApplicationShutdown, Optional } from '@nestjs/common';
import type { Ready } from '@termpaste/contracts';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { ReadDatabase } from '../../infra/database/read-database.js';

/** How long the database has to answer before it counts as down. */
export const DATABASE_CHECK_TIMEOUT_MS = 2000;
/** Liveness only reports its dependencies: a short wait, so the probe's own timeout (1 s by default) holds. */
export const LIVENESS_DATABASE_TIMEOUT_MS = 500;
/** How long Redis has to answer PING before it counts as down. */
export const REDIS_CHECK_TIMEOUT_MS = 2000;

/** Whether `check` resolves true within `ms`; a rejection or no answer in time is false. */
async function answersWithin(check: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const answered = Promise.resolve()
    .then(check)
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The checks behind `/api/health` (liveness, the database reported), `/api/ready` (readiness: the database
 * and, with REDIS_URL, Redis answer) and a worker's `/health` and `/ready`.
 */
@Injectable()
export class HealthService implements OnApplicationShutdown {
  private readonly redisUrl: string | undefined;
  /** A connection of its own, made on the first check, so a check never waits behind queued jobs. */
  private redis: Promise<Redis> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() config: Pick<AppConfig, 'redisUrl'>,
    @Optional() private readonly reads?: ReadDatabase,
  ) {
    this.redisUrl = config.redisUrl;
  }

  /** Whether the database answers `SELECT 1` in time. */
  isDatabaseUp(timeoutMs = DATABASE_CHECK_TIMEOUT_MS): Promise<boolean> {
    return answersWithin(() => this.dataSource.query('SELECT 1'), timeoutMs);
  }

  /** Whether Redis answers PING in time; undefined without REDIS_URL. */
  async isRedisUp(timeoutMs = REDIS_CHECK_TIMEOUT_MS): Promise<boolean | undefined> {
    if (!this.redisUrl) return undefined;
    const redis = (this.redis ??= this.connect(this.redisUrl));
    return answersWithin(async () => (await redis).ping(), timeoutMs);
  }

  /** Both checks at once (so the answer takes ~2 s at worst), as `/api/ready` reports them. */
  async readiness(): Promise<Ready> {
    const [db, redis] = await Promise.all([this.isDatabaseUp(), this.isRedisUp()]);
    const redisState = redis === undefined ? 'not configured' : redis ? 'up' : 'down';
    return {
      status: db && redis !== false ? 'ready' : 'not ready',
      db: db ? 'up' : 'down',
      redis: redisState,
      ...(this.reads?.enabled ? { replicas: this.replicasUp(this.reads) } : {}),
    };
  }

  private replicasUp(reads: ReadDatabase): { up: number; total: number } {
    const states = reads.states();
    return { up: states.filter(({ state }) => state === 'up').length, total: states.length };
  }

  async onApplicationShutdown(): Promise<void> {
    const redis = await this.redis;
    this.redis = undefined;
    if (!redis) return;
    // QUIT only reaches a connected Redis; otherwise stop the reconnection attempts at once.
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else redis.disconnect();
  }

  private async connect(url: string): Promise<Redis> {
    // ioredis is loaded with Redis only: the embedded default never pays for it.
    const { Redis } = await import('ioredis');
    // While Redis is away a PING waits for one reconnection attempt at most (then fails), so checks
    // never pile up; the connection itself keeps retrying.
    const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: REDIS_CHECK_TIMEOUT_MS });
    // Unreachable Redis is what the check reports; an 'error' event nobody listens to would crash.
    redis.on('error', () => undefined);
    return redis;
  }
}
