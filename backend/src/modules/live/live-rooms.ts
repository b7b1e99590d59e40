import {
  isCardEvent,
  isListEvent,
  type LiveWatch,
  type PasteLiveEvent,
  type PasteRef,
} from '@termpaste/contracts';

/** What one socket watches now (its last `watch` frame). */
export interface Watching {
  thread: number | null;
  cards: ReadonlySet<number>;
  lists: boolean;
}

export const WATCHING_NOTHING: Watching = { thread: null, cards: new Set(), lists: false };

/**
 * A `watch` frame's fields as what the socket watches: of the pastes it names, those in `readable` (the
 * numbers of the pastes its member may read, each with the ref the frame named it by) only.
 */
export function watchingOf(watch: LiveWatch, readable: ReadonlyMap<number, PasteRef>): Watching {
  const numberOf = new Map([...readable].map(([id, ref]) => [ref, id] as const));
  const thread =
    watch.thread === undefined || watch.thread === null ? null : (numberOf.get(watch.thread) ?? null);
  const cards = new Set<number>();
  for (const card of watch.cards ?? []) {
    const id = numberOf.get(card);
    if (id !== undefined) cards.add(id);
  }
  return { thread, cards, lists: watch.lists ?? false };
}

function add<K, S>(index: Map<K, Set<S>>, key: K, socket: S): void {
  let sockets = index.get(key);
  if (!sockets) index.set(key, (sockets = new Set()));
  sockets.add(socket);
}

function remove<K, S>(index: Map<K, Set<S>>, key: K, socket: S): void {
  const sockets = index.get(key);
  sockets?.delete(socket);
  if (sockets?.size === 0) index.delete(key);
}

/**
 * Which sockets watch what: a paste's readers, its card's watchers, the lists' watchers. An event goes
 * only to the sockets it is for, never a pass over every socket.
 */
export class LiveRooms<S> {
  private readonly readers = new Map<number, Set<S>>();
  private readonly cards = new Map<number, Set<S>>();
  private readonly lists = new Set<S>();

  /** Moves `socket` from what it watched (`before`) to `after`. */
  move(socket: S, before: Watching, after: Watching): void {
    if (before.thread !== after.thread) {
      if (before.thread !== null) remove(this.readers, before.thread, socket);
      if (after.thread !== null) add(this.readers, after.thread, socket);
    }
    for (const id of before.cards) if (!after.cards.has(id)) remove(this.cards, id, socket);
    for (const id of after.cards) if (!before.cards.has(id)) add(this.cards, id, socket);
    if (after.lists) this.lists.add(socket);
    else this.lists.delete(socket);
  }

  /** The sockets reading a paste. */
  readersOf(threadId: number): ReadonlySet<S> {
    return this.readers.get(threadId) ?? new Set();
  }

  /**
   * The sockets a paste's event is for, each once; `listed` false: a paste no list shows, whose events
   * never reach the lists' watchers (they may not know of it).
   */
  recipients(event: PasteLiveEvent, { listed = true } = {}): Set<S> {
    // The backend names a paste by its number (a key is how a socket is told of it).
    const id = event.threadId as number;
    const to = new Set(this.readers.get(id));
    if (isCardEvent(event)) for (const socket of this.cards.get(id) ?? []) to.add(socket);
    if (listed && isListEvent(event)) for (const socket of this.lists) to.add(socket);
    return to;
  }
}
