import { randomUUID } from 'node:crypto';
import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { PresencePort } from './presence.port.js';

/** The keys' prefix: `<prefix><topic>` and `<prefix><topic>|<member>`. */
export const PRESENCE_PREFIX = 'termpaste:presence:';

/** How long what an instance holds lasts without renewal, by default; renewed every third of it. */
export const PRESENCE_TTL_MS = 30_000;

/*
 * Two sorted sets per topic scored by expiry, renewed every ttl/3, so a crashed instance's entries expire
 * (docs/backend.md).
 */

/** Redis's clock in ms (scripts read TIME, so instances' clocks may disagree). */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS: topic, holders. ARGV: member, instance, ttl ms. Returns the topic's count. */
const JOIN = `${NOW}
local ttl = tonumber(ARGV[3])
local expiry = now + ttl
redis.call('ZADD', KEYS[2], expiry, ARGV[2])
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('ZADD', KEYS[1], 'GT', expiry, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])`;

/** KEYS: topic, holders. ARGV: member, instance. Returns the topic's count. */
const LEAVE = `${NOW}
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local latest = redis.call('ZRANGE', KEYS[2], 0, 0, 'REV', 'WITHSCORES')
if #latest == 0 then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('DEL', KEYS[2])
else
  redis.call('ZADD', KEYS[1], 'XX', latest[2], ARGV[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])`;

/** KEYS: topics. Returns each one's unexpired members. */
const COUNT = `${NOW}
local counts = {}
for i, key in ipairs(KEYS) do
  counts[i] = redis.call('ZCOUNT', key, '(' .. now, '+inf')
end
return counts`;

/** KEYS: the topic. ARGV: members. Returns 1 for each one unexpired in it, else 0. */
const PRESENT = `${NOW}
local present = {}
for i, member in ipairs(ARGV) do
  local expiry = redis.call('ZSCORE', KEYS[1], member)
  present[i] = (expiry and tonumber(expiry) > now) and 1 or 0
end
return present`;

interface PresenceCommands {
  presenceJoin(
    topic: string,
    holders: string,
    member: string,
    instance: string,
    ttl: number,
  ): Promise<number>;
  presenceLeave(topic: string, holders: string, member: string, instance: string): Promise<number>;
  presenceCount(keys: number, ...topics: string[]): Promise<number[]>;
  presencePresent(topic: string, ...members: string[]): Promise<number[]>;
}

export interface RedisPresenceOptions {
  ttlMs?: number;
  prefix?: string;
}

/**
 * The presence port over Redis (REDIS_URL set): see the scripts above. What this instance holds is kept
 * here too, and renewed every third of the time to live; on shutdown it lets go of all of it.
 */
export class RedisPresence extends PresencePort implements OnApplicationShutdown {
  private readonly logger = new Logger('Presence');
  private readonly redis: Redis & PresenceCommands;
  private readonly instance = randomUUID();
  private readonly ttlMs: number;
  private readonly prefix: string;
  /** topic → members this instance holds. */
  private readonly held = new Map<string, Set<string>>();
  private readonly renewal: NodeJS.Timeout;
  private lastError: string | undefined;

  constructor(redisUrl: string, options: RedisPresenceOptions = {}) {
    super();
    this.ttlMs = options.ttlMs ?? PRESENCE_TTL_MS;
    this.prefix = options.prefix ?? PRESENCE_PREFIX;
    // A call waits for at most one reconnection attempt rather than hanging while Redis is away.
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    redis.defineCommand('presenceJoin', { numberOfKeys: 2, lua: JOIN });
    redis.defineCommand('presenceLeave', { numberOfKeys: 2, lua: LEAVE });
    redis.defineCommand('presenceCount', { lua: COUNT });
    redis.defineCommand('presencePresent', { numberOfKeys: 1, lua: PRESENT });
    // An 'error' event nobody listens to (Redis unreachable) would crash the process.
    redis.on('error', (error: Error) => {
      if (error.message === this.lastError) return;
      this.lastError = error.message;
      this.logger.warn(`Redis: ${error.message}`);
    });
    redis.on('ready', () => {
      this.lastError = undefined;
      // Back after an outage (or a Redis restart that lost everything): hold again what we hold.
      void this.renew();
    });
    this.redis = redis as Redis & PresenceCommands;
    this.renewal = setInterval(() => void this.renew(), Math.max(Math.floor(this.ttlMs / 3), 10));
    this.renewal.unref();
  }

  async join(topic: string, member: string): Promise<number> {
    let members = this.held.get(topic);
    if (!members) this.held.set(topic, (members = new Set()));
    members.add(member);
    return Number(
      await this.redis.presenceJoin(
        this.key(topic),
        this.holders(topic, member),
        member,
        this.instance,
        this.ttlMs,
      ),
    );
  }

  async leave(topic: string, member: string): Promise<number> {
    const members = this.held.get(topic);
    members?.delete(member);
    if (members?.size === 0) this.held.delete(topic);
    return Number(
      await this.redis.presenceLeave(this.key(topic), this.holders(topic, member), member, this.instance),
    );
  }

  async counts(topics: string[]): Promise<number[]> {
    if (topics.length === 0) return [];
    const counts = await this.redis.presenceCount(topics.length, ...topics.map((topic) => this.key(topic)));
    return counts.map(Number);
  }

  async present(topic: string, members: string[]): Promise<boolean[]> {
    if (members.length === 0) return [];
    const present = await this.redis.presencePresent(this.key(topic), ...members);
    return present.map((flag) => Number(flag) === 1);
  }

  /** Stops renewing and lets go of everything this instance holds (the others' counts drop at once). */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.renewal);
    if (this.redis.status === 'ready') {
      const pipeline = this.redis.pipeline() as unknown as PresenceCommands & { exec(): Promise<unknown> };
      for (const [topic, members] of this.held) {
        for (const member of members) {
          void pipeline.presenceLeave(this.key(topic), this.holders(topic, member), member, this.instance);
        }
      }
      await pipeline.exec().catch(() => undefined);
      await this.redis.quit().catch(() => this.redis.disconnect());
    } else {
      this.redis.disconnect();
    }
    this.held.clear();
  }

  /** For tests: stops renewing and drops the connection without letting go, as a crash would. */
  crashForTest(): void {
    clearInterval(this.renewal);
    this.held.clear();
    this.redis.disconnect();
  }

  /** Renews every entry this instance holds, in one round trip. */
  private async renew(): Promise<void> {
    if (this.held.size === 0 || this.redis.status !== 'ready') return;
    const pipeline = this.redis.pipeline() as unknown as PresenceCommands & { exec(): Promise<unknown> };
    for (const [topic, members] of this.held) {
      for (const member of members) {
        void pipeline.presenceJoin(
          this.key(topic),
          this.holders(topic, member),
          member,
          this.instance,
          this.ttlMs,
        );
      }
    }
    await pipeline.exec().catch((error: unknown) => {
      this.logger.warn(`Presence not renewed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private key(topic: string): string {
    return this.prefix + topic;
  }

  private holders(topic: string, member: string): string {
    return `${this.prefix}${topic}|${member}`;
  }
}
