import { randomUUID } from 'node:crypto';
import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { liveEventSchema, pasteLiveEventSchema } from '@termpaste/contracts';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { settlesWithin } from '../../common/settles-within.js';
import { inSpan } from '../tracing/tracing.js';
import {
  deliverToEach,
  EventsPort,
  type InstanceEvent,
  type InstanceListener,
  type LiveEnvelope,
  type LiveListener,
  liveSpan,
} from './events.port.js';

/** The Redis pub/sub channel every instance publishes its live events on. */
export const LIVE_CHANNEL = 'termpaste:live';

/** The channel of instance events (never for sockets): `<LIVE_CHANNEL>:instances`. */
const INSTANCES_SUFFIX = ':instances';

/** How long start-up waits for the subscription before going on (it is kept trying after that). */
const SUBSCRIBE_WAIT_MS = 5000;
/** Longest part of an invalid payload quoted in the log. */
const LOGGED_PAYLOAD_MAX = 200;

const instanceMessageSchema = z.object({
  from: z.string(),
  event: z.discriminatedUnion('type', [
    z.object({
      type: z.literal('pages_changed'),
      all: z.literal(true).optional(),
      lists: z.literal(true).optional(),
      threads: z.array(z.number().int().positive()).max(10_000).optional(),
      profiles: z.array(z.number().int().positive()).max(10_000).optional(),
      members: z.array(z.number().int().positive()).max(10_000).optional(),
      countsOnly: z.literal(true).optional(),
      listPages: z.array(z.string().min(1).max(300)).max(100).optional(),
      cards: z.array(z.number().int().positive()).max(10_000).optional(),
      posted: z.array(z.number().int().positive()).max(10_000).optional(),
      scores: z
        .array(
          z.object({
            threadId: z.number().int().positive(),
            replyId: z.number().int().positive().nullable(),
            voteScore: z.number().int(),
          }),
        )
        .max(10_000)
        .optional(),
    }),
    z.object({
      type: z.literal('presence_changed'),
      topics: z.array(z.string().min(1).max(200)).min(1).max(1000),
    }),
    z.object({
      type: z.literal('paste_hidden'),
      threadId: z.number().int().positive(),
      authorId: z.number().int().positive().nullable(),
    }),
    z.object({ type: z.literal('client_wrote'), client: z.string().min(1).max(200) }),
    z.object({
      type: z.literal('sessions_changed'),
      members: z.array(z.number().int().positive()).min(1).max(10_000),
    }),
  ]),
});

const envelopeSchema = z.union([
  z.object({ to: z.literal('all'), event: liveEventSchema }),
  z.object({
    to: z.literal('user'),
    userId: z.number().int().positive(),
    exceptSession: z.string().min(1).max(256).optional(),
    onlySession: z.string().min(1).max(256).optional(),
    event: liveEventSchema,
  }),
  z.object({ to: z.literal('paste'), event: pasteLiveEventSchema, listed: z.boolean().optional() }),
]);

/**
 * The events port over Redis pub/sub: every instance publishes and subscribes on one channel. Two
 * connections (a subscribed one cannot publish); an envelope that does not parse is logged and dropped.
 */
export class RedisEvents extends EventsPort implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Events');
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly listeners = new Set<LiveListener>();
  private readonly instanceListeners = new Set<InstanceListener>();
  /** This instance, so that it skips its own instance events (it delivered them already). */
  private readonly instanceId = randomUUID();
  private readonly instancesChannel: string;
  private readonly subscribed: Promise<unknown>;
  private lastError: string | undefined;
  /** Set once shutdown has begun: the connections are being closed on purpose. */
  private closing = false;

  constructor(
    redisUrl: string,
    private readonly channel = LIVE_CHANNEL,
  ) {
    super();
    this.instancesChannel = channel + INSTANCES_SUFFIX;
    // A publish waits for at most one reconnection attempt rather than hanging while Redis is away.
    this.publisher = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    // The subscription is retried until Redis is there, and renewed after every reconnection (by us:
    // ioredis' own renewal leaves its promise unhandled, and a shutdown while it is in flight would
    // surface as an unhandled 'Connection is closed.').
    this.subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null, autoResubscribe: false });
    for (const connection of [this.publisher, this.subscriber]) {
      // An 'error' event nobody listens to (Redis unreachable) would crash the process.
      connection.on('error', (error: Error) => {
        if (error.message === this.lastError) return;
        this.lastError = error.message;
        this.logger.warn(`Redis: ${error.message}`);
      });
      connection.on('ready', () => (this.lastError = undefined));
    }
    this.subscriber.on('message', (channel: string, payload: string) => {
      if (channel === this.channel) this.receive(payload);
      else if (channel === this.instancesChannel) this.receiveInstanceEvent(payload);
    });
    this.subscribed = this.subscriber.subscribe(this.channel, this.instancesChannel);
    // Start-up reports a failure (onModuleInit); this only keeps it from being an unhandled rejection.
    this.subscribed.catch(() => undefined);
    let connectedBefore = false;
    this.subscriber.on('ready', () => {
      // The first connection sends the subscription above; each later one renews it.
      if (connectedBefore) this.resubscribe();
      connectedBefore = true;
    });
  }

  /** Start-up waits (a while) for the subscription, so events published once the app is up arrive. */
  async onModuleInit(): Promise<void> {
    const done = await settlesWithin(this.subscribed, SUBSCRIBE_WAIT_MS).catch((error: unknown) => {
      this.logger.error(`Could not subscribe to ${this.channel}: ${String(error)}`);
      return true;
    });
    if (!done) this.logger.warn(`Not yet subscribed to ${this.channel} (Redis unreachable?); still trying`);
  }

  async publish(envelope: LiveEnvelope): Promise<void> {
    await inSpan('live publish', liveSpan('redis', this.channel, envelope), async () => {
      await this.publisher.publish(this.channel, JSON.stringify(envelope));
    });
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async broadcast(event: InstanceEvent): Promise<void> {
    deliverToEach(this.instanceListeners, event, this.logger, 'instance event');
    await this.publisher.publish(this.instancesChannel, JSON.stringify({ from: this.instanceId, event }));
  }

  onBroadcast(listener: InstanceListener): () => void {
    this.instanceListeners.add(listener);
    return () => this.instanceListeners.delete(listener);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    this.listeners.clear();
    this.instanceListeners.clear();
    await Promise.all(
      // QUIT only reaches a connected Redis; otherwise stop the reconnection attempts at once.
      [this.publisher, this.subscriber].map(async (connection) => {
        if (connection.status === 'ready') await connection.quit().catch(() => connection.disconnect());
        else connection.disconnect();
      }),
    );
  }

  /** Subscribes again after a reconnection; a failure is logged (none while shutting down). */
  private resubscribe(): void {
    this.subscriber.subscribe(this.channel, this.instancesChannel).catch((error: unknown) => {
      if (this.closing) return;
      this.logger.error(
        `Could not subscribe to ${this.channel} again: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }

  private receive(payload: string): void {
    const envelope = this.valid(payload, envelopeSchema, 'live event', this.channel);
    if (envelope) deliverToEach(this.listeners, envelope as LiveEnvelope, this.logger, 'live event');
  }

  private receiveInstanceEvent(payload: string): void {
    const message = this.valid(payload, instanceMessageSchema, 'instance event', this.instancesChannel);
    if (!message || message.from === this.instanceId) return;
    deliverToEach(this.instanceListeners, message.event as InstanceEvent, this.logger, 'instance event');
  }

  /**
   * The payload as sent, once `schema` has checked it (listeners see what the in-process bus gives them);
   * one that does not parse is logged and ignored (undefined).
   */
  private valid<T>(payload: string, schema: z.ZodType<T>, what: string, channel: string): T | undefined {
    try {
      const value: unknown = JSON.parse(payload);
      schema.parse(value);
      return value as T;
    } catch {
      this.logger.warn(`Ignored an invalid ${what} on ${channel}: ${payload.slice(0, LOGGED_PAYLOAD_MAX)}`);
      return undefined;
    }
  }
}
