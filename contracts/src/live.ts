import { z } from 'zod';
import { pasteRefSchema } from './visibility.js';

/*
 * The forum's live events on `/ws/chat` (public: a visitor's socket gets them too). Each carries ids and
 * the changed fields only; a page that needs more reads the paste again. Who gets what: docs/live.md.
 */

const id = z.number().int().positive();
/**
 * The paste an event is about: its number, or the key a socket watches it by (the socket names a paste
 * as it was named to it, so a keyed paste's number is never told).
 */
const ref = pasteRefSchema;
const count = z.number().int().nonnegative();

export const PASTE_LIVE_EVENT = {
  /** A new reply in the paste: read the paste again to show it. */
  replyAdded: 'reply_added',
  /**
   * A reply was deleted: by staff with the replies under it; by its author (`alone`) by itself, shown as
   * a placeholder while replies stand under it.
   */
  replyDeleted: 'reply_deleted',
  /** A reply's text changed: read the paste again. */
  replyEdited: 'reply_edited',
  /** A paste's or a reply's (`replyId`) score moved. */
  voteScore: 'vote_score',
  /** A paste's flags changed (staff). */
  pasteFlags: 'paste_flags',
  /** A paste's title or text changed: read the paste again (a card takes the title). */
  pasteEdited: 'paste_edited',
  /** A paste was deleted (its author or staff). */
  pasteDeleted: 'paste_deleted',
  /** A new paste (home's lists). */
  pasteAdded: 'paste_added',
  /** Members with the paste open now (counted per member, visitors not counted). */
  threadReaders: 'thread_readers',
  /** Members online now (counted per member): sent to chat sockets. */
  onlineCount: 'online_count',
} as const;

const pasteEventSchemas = [
  z.object({
    type: z.literal(PASTE_LIVE_EVENT.replyAdded),
    threadId: ref,
    replyId: id,
    parentId: id.nullable(),
    /** The reply's author (null: a deleted account), so their own tab can tell its reply from others'. */
    authorId: id.nullable(),
    replyCount: count,
  }),
  z.object({
    type: z.literal(PASTE_LIVE_EVENT.replyDeleted),
    threadId: ref,
    replyId: id,
    replyCount: count,
    /** Only this reply went (its author's delete): the replies under it stay. */
    alone: z.boolean().optional(),
  }),
  z.object({
    type: z.literal(PASTE_LIVE_EVENT.replyEdited),
    threadId: ref,
    replyId: id,
    editedAt: z.string(),
  }),
  z.object({
    type: z.literal(PASTE_LIVE_EVENT.voteScore),
    threadId: ref,
    /** Null: the paste's own score. */
    replyId: id.nullable(),
    voteScore: z.number().int(),
  }),
  z.object({
    type: z.literal(PASTE_LIVE_EVENT.pasteFlags),
    threadId: ref,
    isPinned: z.boolean(),
    isLocked: z.boolean(),
    isFeatured: z.boolean(),
  }),
  z.object({
    type: z.literal(PASTE_LIVE_EVENT.pasteEdited),
    threadId: ref,
    title: z.string(),
    editedAt: z.string(),
  }),
  z.object({ type: z.literal(PASTE_LIVE_EVENT.pasteDeleted), threadId: ref }),
  z.object({ type: z.literal(PASTE_LIVE_EVENT.pasteAdded), threadId: ref }),
] as const;

/** A paste's public events (every forum event but the presence counts), as the backend publishes them. */
export const pasteLiveEventSchema = z.discriminatedUnion('type', pasteEventSchemas);
export type PasteLiveEvent = z.infer<typeof pasteLiveEventSchema>;

/** Every forum event a socket may get (messaging.ts's liveEventSchema includes them). */
export const pasteLiveEventSchemas = [
  ...pasteEventSchemas,
  z.object({ type: z.literal(PASTE_LIVE_EVENT.threadReaders), threadId: ref, count }),
  z.object({ type: z.literal(PASTE_LIVE_EVENT.onlineCount), count }),
] as const;

/**
 * The paste events a card in a list shows (its counts, flags and title) go to sockets watching that
 * card; the others (a reply's text or score) only to the paste's readers.
 */
export function isCardEvent(event: PasteLiveEvent): boolean {
  switch (event.type) {
    case PASTE_LIVE_EVENT.replyEdited:
      return false;
    case PASTE_LIVE_EVENT.voteScore:
      return event.replyId === null;
    default:
      return true;
  }
}

/** The paste events that change which pastes a list holds go to every socket watching the lists. */
export function isListEvent(event: PasteLiveEvent): boolean {
  return (
    event.type === PASTE_LIVE_EVENT.pasteAdded ||
    event.type === PASTE_LIVE_EVENT.pasteFlags ||
    event.type === PASTE_LIVE_EVENT.pasteDeleted
  );
}

/** Cards one socket may watch at once (a few pages of home). */
export const LIVE_WATCH_CARDS_MAX = 200;

/**
 * `{"type":"watch",...}`: what the socket shows now, replacing what it watched before (`thread`, `cards`,
 * `lists`; pastes by ref). A paste the member may not read is silently not watched.
 */
export const liveWatchSchema = z.strictObject({
  type: z.literal('watch'),
  thread: ref.nullable().optional(),
  cards: z.array(ref).max(LIVE_WATCH_CARDS_MAX).optional(),
  lists: z.boolean().optional(),
});
export type LiveWatchFrame = z.infer<typeof liveWatchSchema>;
/** What a socket watches, as a page asks for it (the frame without its type). */
export type LiveWatch = Omit<LiveWatchFrame, 'type'>;

/** `/ws/chat?scope=public`: a socket for public events only, open to visitors (no session read). */
export const LIVE_SCOPE_PUBLIC = 'public';

/** Visitor sockets one client address may hold at once, unless LIVE_VISITOR_SOCKETS_PER_ADDRESS says. */
export const LIVE_VISITOR_SOCKETS_PER_ADDRESS_DEFAULT = 8;

/**
 * Close codes of `/ws/chat` beyond the standard ones (1001 going away, 1008 policy, 1009 too big): the
 * reason text says the same in words.
 */
export const LIVE_CLOSE = {
  /** The socket's session was revoked (`signed_out` came first). */
  signedOut: { code: 4001, reason: 'Signed out' },
  /** A visitor socket beyond the per-address cap. */
  tooManyVisitorSockets: { code: 4429, reason: 'Too many visitor connections from this address' },
  /** A `watch` frame that does not parse, or watch frames sent too fast. */
  badWatch: { code: 4400, reason: 'Invalid watch frame' },
  tooManyWatches: { code: 4430, reason: 'Watch frames sent too fast' },
} as const;
