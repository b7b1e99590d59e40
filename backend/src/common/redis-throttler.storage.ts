import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * One hit, atomically, in a fixed window per key. The hit over the limit blocks the key and ends the
 * window, so counting starts afresh after the block; blocked hits are not counted.
 * KEYS: hits, block. ARGV: window ms, limit, block ms. Returns hits, window ms left, blocked 0/1, block ms left.
 */
const HIT_SCRIPT = `
local blockLeft = redis.call('PTTL', KEYS[2])
if blockLeft > 0 then
  return { tonumber(ARGV[2]) + 1, blockLeft, 1, blockLeft }
end
local hits = redis.call('INCR', KEYS[1])
local windowLeft = redis.call('PTTL', KEYS[1])
if windowLeft < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  windowLeft = tonumber(ARGV[1])
end
if hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  redis.call('DEL', KEYS[1])
  return { hits, windowLeft, 1, tonumber(ARGV[3]) }
end
return { hits, windowLeft, 0, 0 }
`;

/**
 * Rate-limit counters in Redis, shared by every instance (the in-memory default counts per process).
 * `ttl` and `blockDuration` are in milliseconds, as @nestjs/throttler passes them.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimits');
  private readonly redis: Redis;
  private lastError: string | undefined;

  constructor(
    redisUrl: string,
    private readonly prefix = 'termpaste:rate-limit:',
  ) {
    // A request waits for at most one reconnection attempt rather than hanging while Redis is away.
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    this.redis.on('error', (error: Error) => {
      if (error.message === this.lastError) return;
      this.lastError = error.message;
      this.logger.warn(`Redis: ${error.message}`);
    });
    this.redis.on('ready', () => (this.lastError = undefined));
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    // The braces put both keys in one hash slot, so the script also runs on a Redis Cluster.
    const hitsKey = `${this.prefix}{${throttlerName}:${key}}`;
    const block = blockDuration > 0 ? blockDuration : ttl;
    const [totalHits, windowLeftMs, blocked, blockLeftMs] = (await this.redis.eval(
      HIT_SCRIPT,
      2,
      hitsKey,
      `${hitsKey}:blocked`,
      ttl,
      limit,
      block,
    )) as [number, number, number, number];
    return {
      totalHits,
      timeToExpire: Math.ceil(windowLeftMs / 1000),
      isBlocked: blocked === 1,
      timeToBlockExpire: Math.ceil(blockLeftMs / 1000),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    // QUIT only reaches a connected Redis; otherwise stop the reconnection attempts at once.
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}
