import type { Logger } from '@nestjs/common';
import type { LiveEvent } from '@termpaste/contracts';

/** Who a live event is for: every connected member (chat), or one member's sockets only. */
export type LiveAudience = { to: 'all' } | { to: 'user'; userId: number };

/** One live event on its way to the sockets of every instance. */
export type LiveEnvelope = LiveAudience & { event: LiveEvent };

export type LiveListener = (envelope: LiveEnvelope) => void;

/**
 * The events port: live events (a new chat message, a new notification, the unread count) are published
 * here, and every instance's WebSocket gateway subscribes, so any instance can serve any socket. Two
 * adapters implement it: in-process when embedded, Redis pub/sub when REDIS_URL is set. Delivery is at
 * most once (a live event missed by a socket that is reconnecting is caught up by refetching).
 */
export abstract class EventsPort {
  /** Delivers the envelope to every subscriber of every instance. */
  abstract publish(envelope: LiveEnvelope): Promise<void>;
  /** Calls `listener` for every envelope published from now on, on any instance; returns an unsubscribe. */
  abstract subscribe(listener: LiveListener): () => void;
}

/** Hands an envelope to each listener; one that throws is logged and does not stop the others. */
export function deliverToListeners(
  listeners: Iterable<LiveListener>,
  envelope: LiveEnvelope,
  logger: Logger,
): void {
  for (const listener of listeners) {
    try {
      listener(envelope);
    } catch (error) {
      logger.error('A live event listener failed', error instanceof Error ? error.stack : String(error));
    }
  }
}
