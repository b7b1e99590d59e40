import type { Logger } from '@nestjs/common';
import type { LiveEvent, PasteLiveEvent } from '@termpaste/contracts';
import type { SpanOptions } from '../tracing/tracing.js';

/**
 * Who a live event is for: every member (chat) or one member, all sockets, all but `exceptSession`'s, or
 * `onlySession`'s.
 */
export type LiveAudience =
  { to: 'all' } | { to: 'user'; userId: number; exceptSession?: string; onlySession?: string };

/**
 * One live event on its way to the sockets of every instance. `to: 'paste'`: a paste's public event,
 * for the sockets that watch that paste (its readers, its card in a list, the lists: see live.ts).
 */
export type LiveEnvelope =
  | (LiveAudience & { event: LiveEvent })
  | {
      to: 'paste';
      event: PasteLiveEvent;
      /** False: a paste no list shows (unlisted, private), whose events the lists' watchers never get. */
      listed?: boolean;
    };

export type LiveListener = (envelope: LiveEnvelope) => void;

/**
 * Which cached public pages a write made stale, for every instance (never sent to a socket): `all`,
 * `lists`, `threads` (those pastes) or `profiles` (those members).
 */
export interface PagesChanged {
  type: 'pages_changed';
  all?: true;
  lists?: true;
  threads?: number[];
  profiles?: number[];
  /** Members whose name, avatar or bio changed: every page that shows them (as an author, a replier). */
  members?: number[];
  /**
   * Only counters moved (stored view counts): the pages named stay served, each while one reload of it
   * runs, instead of every reader waiting for it.
   */
  countsOnly?: true;
  /**
   * List pages by key (`profile:7`), or each list whose key starts with a prefix ending in `*`
   * (`search:*`): dropped. A change names the lists it changes instead of `lists` (every list).
   */
  listPages?: string[];
  /**
   * Pastes whose cards' counters moved (a reply's count and last replier): the lists that show one of
   * them stay served while one reload of each runs; the other lists are left as they are.
   */
  cards?: number[];
  /**
   * New listed pastes: a cached list that can tell whether a paste is one of its own (a search page) is
   * asked at its next read, and kept if none is; the lists that cannot are named by `listPages`.
   */
  posted?: number[];
  /** Scores a vote moved: put into the cached pages that show them (a paste's page, its cards) in place. */
  scores?: ScoreMoved[];
}
/** A paste's (`replyId` null) or a reply's score, as a vote left it. */
export interface ScoreMoved {
  threadId: number;
  replyId: number | null;
  voteScore: number;
}
/** The presence counts of these topics (presence.port.ts) changed: each instance tells its watchers. */
export interface PresenceChanged {
  type: 'presence_changed';
  topics: string[];
}
/**
 * A paste some of its readers may no longer read (made unlisted or private): each instance's live
 * sockets that watch it are told it is gone and stop hearing of it, but its author's.
 */
export interface PasteHidden {
  type: 'paste_hidden';
  threadId: number;
  authorId: number | null;
}
/**
 * An access-token client (a hash of its token) is writing: its reads skip the page cache and the read
 * replicas for a moment on every instance (http/fresh-reads.ts).
 */
export interface ClientWrote {
  type: 'client_wrote';
  client: string;
}
/** The API changed these members (a ban, a role): instances read their sessions afresh (SessionsService). */
export interface SessionsChanged {
  type: 'sessions_changed';
  members: number[];
}
export type InstanceEvent = PagesChanged | PresenceChanged | PasteHidden | ClientWrote | SessionsChanged;
export type InstanceListener = (event: InstanceEvent) => void;

/**
 * The span of a live event's publishing, inside the trace of what sent it (a request, a job) only: the
 * socket end of that trace.
 */
export function liveSpan(
  system: 'redis' | 'in-process',
  channel: string,
  envelope: LiveEnvelope,
): SpanOptions {
  return {
    kind: 'producer',
    withinTrace: true,
    attributes: {
      'messaging.system': system,
      'messaging.operation.type': 'send',
      'messaging.destination.name': channel,
      'termpaste.live.to': envelope.to,
      'termpaste.live.event': envelope.event.type,
    },
  };
}

/**
 * The events port: published here, heard by every instance's gateway, so any instance serves any socket.
 * In-process or Redis pub/sub; at most once (a reconnecting socket catches up by refetching).
 */
export abstract class EventsPort {
  /** Delivers the envelope to every subscriber of every instance. */
  abstract publish(envelope: LiveEnvelope): Promise<void>;
  /** Calls `listener` for every envelope published from now on, on any instance; returns an unsubscribe. */
  abstract subscribe(listener: LiveListener): () => void;
  /**
   * Tells every instance of `event`: this one's listeners before it returns (so the write that sends it
   * reads its own result at once), the others' as soon as the bus carries it. At most once, like events.
   */
  abstract broadcast(event: InstanceEvent): Promise<void>;
  /** Calls `listener` for every instance event from now on (this instance's own included). */
  abstract onBroadcast(listener: InstanceListener): () => void;
}

/**
 * Hands `value` to each listener; one that throws is logged (as `A <what> listener failed`) and does not
 * stop the others. Both buses deliver live envelopes and instance events through it.
 */
export function deliverToEach<T>(
  listeners: Iterable<(value: T) => void>,
  value: T,
  logger: Logger,
  what: 'live event' | 'instance event',
): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch (error) {
      logger.error(`A ${what} listener failed`, error instanceof Error ? error.stack : String(error));
    }
  }
}

/**
 * Publishes a paste's public event, not awaited by the write; a failing bus is logged (readers catch up on
 * reload).
 */
function publishPasteEvent(events: EventsPort, event: PasteLiveEvent, logger: Logger, listed: boolean): void {
  events.publish({ to: 'paste', event, ...(listed ? {} : { listed }) }).catch((error: unknown) => {
    logger.warn(`Live event not published: ${error instanceof Error ? error.message : String(error)}`);
  });
}

/**
 * Tells every instance which pages a committed write made stale (a failing bus is only logged: copies
 * expire). `pasteEvent` follows, so an instance drops its cached page before its readers reload it.
 */
export async function announcePagesChanged(
  events: EventsPort,
  change: Omit<PagesChanged, 'type'>,
  logger: Logger,
  pasteEvent?: PasteLiveEvent,
  { listed = true }: { listed?: boolean } = {},
): Promise<void> {
  try {
    await events.broadcast({ type: 'pages_changed', ...change });
  } catch (error) {
    logger.warn(
      `Other instances not told of changed pages: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (pasteEvent) publishPasteEvent(events, pasteEvent, logger, listed);
}
