import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { EventsPort } from '../../infra/events/events.port.js';
import { PresencePort } from '../../infra/presence/presence.port.js';

/** How often the counts this instance shows are read again even if nobody said they changed. */
export const PRESENCE_RECOUNT_MS = 10_000;
/** Changes within this long are counted once (a crowd arriving on a paste is one update, not hundreds). */
export const PRESENCE_COALESCE_MS = 200;

export type CountsListener = (counts: Map<string, number>) => void;

/**
 * This instance's side of presence: a member's sockets here (tabs) are one presence entry, joined with
 * the first and left with the last. Joins and leaves are announced; watched topics are recounted at most
 * every PRESENCE_COALESCE_MS and at least every PRESENCE_RECOUNT_MS. docs/backend.md.
 */
@Injectable()
export class LivePresence implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Presence');
  /** topic → user id → sockets here that stand for it. */
  private readonly held = new Map<string, Map<string, number>>();
  /** Topics the listener shows, with the count it was last given. */
  private readonly shown = new Map<string, number | undefined>();
  private readonly dirty = new Set<string>();
  private readonly announcing = new Set<string>();
  private recountTimer: NodeJS.Timeout | undefined;
  private coalesceTimer: NodeJS.Timeout | undefined;
  private offBroadcast: (() => void) | undefined;
  private listener: CountsListener | undefined;
  private stopped = false;
  private lastError: string | undefined;

  constructor(
    private readonly presence: PresencePort,
    private readonly events: EventsPort,
  ) {}

  onModuleInit(): void {
    this.offBroadcast = this.events.onBroadcast((event) => {
      if (event.type === 'presence_changed') this.markDirty(event.topics);
    });
    this.recountTimer = setInterval(() => this.markDirty([...this.shown.keys()]), PRESENCE_RECOUNT_MS);
    this.recountTimer.unref();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    this.offBroadcast?.();
    clearInterval(this.recountTimer);
    clearTimeout(this.coalesceTimer);
  }

  /** Who is told of changed counts (the gateway). */
  onCounts(listener: CountsListener): void {
    this.listener = listener;
  }

  /** One more socket here stands for `userId` in `topic`; resolves once the presence port has it. */
  async enter(topic: string, userId: string): Promise<void> {
    let users = this.held.get(topic);
    if (!users) this.held.set(topic, (users = new Map()));
    const sockets = users.get(userId) ?? 0;
    users.set(userId, sockets + 1);
    if (sockets === 0) await this.call(() => this.presence.join(topic, userId), topic);
  }

  /** One socket fewer stands for `userId` in `topic`: the last one leaves the topic. */
  async exit(topic: string, userId: string): Promise<void> {
    const users = this.held.get(topic);
    const sockets = users?.get(userId) ?? 0;
    if (!users || sockets === 0) return;
    if (sockets > 1) {
      users.set(userId, sockets - 1);
      return;
    }
    users.delete(userId);
    if (users.size === 0) this.held.delete(topic);
    await this.call(() => this.presence.leave(topic, userId), topic);
  }

  /** The listener shows `topic` (or no longer does): its counts are read when it changes. */
  watch(topic: string, shown: boolean): void {
    if (shown && !this.shown.has(topic)) this.shown.set(topic, undefined);
    if (!shown) this.shown.delete(topic);
  }

  /** A topic's count now (0 when the presence port cannot say). */
  async count(topic: string): Promise<number> {
    const [count] = await this.presence.counts([topic]).catch((error: unknown) => {
      this.warn(error);
      return [0];
    });
    return count ?? 0;
  }

  private async call(change: () => Promise<number>, topic: string): Promise<void> {
    try {
      await change();
      this.lastError = undefined;
    } catch (error) {
      this.warn(error);
      return;
    }
    this.announce(topic);
  }

  /** Tells every instance (this one too) that `topic`'s count moved; the topics of one tick go together. */
  private announce(topic: string): void {
    if (this.stopped) return;
    const first = this.announcing.size === 0;
    this.announcing.add(topic);
    if (!first) return;
    queueMicrotask(() => {
      const topics = [...this.announcing];
      this.announcing.clear();
      this.events.broadcast({ type: 'presence_changed', topics }).catch((error: unknown) => this.warn(error));
    });
  }

  private markDirty(topics: string[]): void {
    for (const topic of topics) if (this.shown.has(topic)) this.dirty.add(topic);
    if (this.dirty.size === 0 || this.coalesceTimer || this.stopped) return;
    this.coalesceTimer = setTimeout(() => {
      this.coalesceTimer = undefined;
      void this.recount();
    }, PRESENCE_COALESCE_MS);
    this.coalesceTimer.unref();
  }

  private async recount(): Promise<void> {
    const topics = [...this.dirty];
    this.dirty.clear();
    let counts: number[];
    try {
      counts = await this.presence.counts(topics);
    } catch (error) {
      this.warn(error);
      return;
    }
    const changed = new Map<string, number>();
    topics.forEach((topic, i) => {
      const count = counts[i] ?? 0;
      if (!this.shown.has(topic) || this.shown.get(topic) === count) return;
      this.shown.set(topic, count);
      changed.set(topic, count);
    });
    if (changed.size > 0 && !this.stopped) this.listener?.(changed);
  }

  /** Presence is best effort: a failing store is logged once per distinct error, never thrown. */
  private warn(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (message === this.lastError || this.stopped) return;
    this.lastError = message;
    this.logger.warn(`Presence not updated: ${message}`);
  }
}
