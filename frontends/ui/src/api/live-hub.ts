import {
  LIVE_SCOPE_PUBLIC,
  LIVE_SCOPE_USER,
  LIVE_WATCH_CARDS_MAX,
  type LiveEvent,
  type LiveWatch,
  type PasteRef,
} from '@termpaste/contracts';
import { openLiveSocket, type LiveConnection, type LiveScope, type LiveStatus } from './live-socket.js';

/** One user of the live connection (a useLiveEvents call that is enabled). */
export interface LiveSubscriber {
  /**
   * 'user': only the member's own events are needed; 'public': only the public events it watches (a
   * visitor can have those); without it, the chat too.
   */
  scope?: LiveScope;
  /** What this subscriber shows (a paste, cards, the lists): the socket watches it for the page. */
  watch?: LiveWatch;
  status(status: LiveStatus): void;
  event(event: LiveEvent): void;
  /** `reconnected` is true when this subscriber had a connection before and may have missed events. */
  open(reconnected: boolean): void;
}

/** What the socket must carry: nothing (no socket), public events, the member's own too, or the chat too. */
type Need = 'public' | 'user' | 'all' | null;

const NEEDS: Record<Exclude<Need, null>, number> = { public: 0, user: 1, all: 2 };

function needOf(scope: LiveScope | undefined): Exclude<Need, null> {
  return scope === LIVE_SCOPE_USER ? 'user' : scope === LIVE_SCOPE_PUBLIC ? 'public' : 'all';
}

/** The `watch` frame for what every subscriber shows together (null: nothing to watch). */
function watchFrame(watches: Array<LiveWatch | undefined>): string | null {
  let thread: PasteRef | null = null;
  const cards = new Set<PasteRef>();
  let lists = false;
  for (const watch of watches) {
    if (!watch) continue;
    if (watch.thread != null) thread = watch.thread;
    for (const id of watch.cards ?? []) if (cards.size < LIVE_WATCH_CARDS_MAX) cards.add(id);
    lists ||= watch.lists === true;
  }
  if (thread === null && cards.size === 0 && !lists) return null;
  return JSON.stringify({ type: 'watch', thread, cards: [...cards], lists });
}

/**
 * One live socket shared by its subscribers, open while any is, with the widest scope any needs; a scope
 * change replaces it (closed first, so never two). What the subscribers show is sent as one `watch`
 * frame on every change and (re)connection.
 */
export class LiveHub {
  /** Each subscriber, and whether it has seen a connection open (the next one is a reconnection to it). */
  private readonly subscribers = new Map<LiveSubscriber, { opened: boolean }>();
  private need: Need = null;
  private connection: LiveConnection | null = null;
  /** The socket's state as a new subscriber should see it. */
  private state: LiveStatus = 'closed';
  /** The watch frame the open socket was last sent (null: none, or nothing to watch). */
  private sentWatch: string | null = null;

  /** Adds a subscriber (opening or widening the socket if need be); the returned function removes it. */
  subscribe(subscriber: LiveSubscriber): () => void {
    this.subscribers.set(subscriber, { opened: false });
    if (!this.update()) {
      // The socket it needs is already there: it joins as is.
      subscriber.status(this.state);
      if (this.state === 'open') this.opened(subscriber);
      this.sendWatch();
    }
    return () => {
      this.subscribers.delete(subscriber);
      if (!this.update()) this.sendWatch();
    };
  }

  /** A subscriber's `watch` changed (the page shows other pastes): the server is told. */
  watchChanged(subscriber: LiveSubscriber, watch: LiveWatch | undefined): void {
    subscriber.watch = watch;
    if (this.subscribers.has(subscriber)) this.sendWatch();
  }

  /** Opens, replaces or closes the socket for what the subscribers now need; true if it did. */
  private update(): boolean {
    let need: Need = null;
    for (const subscriber of this.subscribers.keys()) {
      const wanted = needOf(subscriber.scope);
      if (need === null || NEEDS[wanted] > NEEDS[need]) need = wanted;
    }
    if (need === this.need) return false;
    this.connection?.close();
    this.connection = null;
    this.sentWatch = null;
    this.need = need;
    this.state = need ? 'connecting' : 'closed';
    if (!need) return true;
    // Those that had a connection see a reconnection, and are told to catch up once the new one opens.
    this.each((subscriber, meta) => subscriber.status(meta.opened ? 'reconnecting' : 'connecting'));
    this.connection = openLiveSocket(need === 'all' ? undefined : need, {
      open: () => {
        this.state = 'open';
        this.sentWatch = null;
        this.sendWatch();
        this.each((subscriber) => this.opened(subscriber));
      },
      dropped: () => {
        this.state = 'reconnecting';
        this.each((subscriber) => subscriber.status('reconnecting'));
      },
      retrying: () => {
        this.state = 'reconnecting';
        this.each((subscriber, meta) => subscriber.status(meta.opened ? 'reconnecting' : 'connecting'));
      },
      event: (event) => this.each((subscriber) => subscriber.event(event)),
    });
    return true;
  }

  /** Sends the open socket what the subscribers show now, when that changed. */
  private sendWatch(): void {
    if (this.state !== 'open' || !this.connection) return;
    const frame = watchFrame([...this.subscribers.keys()].map((subscriber) => subscriber.watch));
    // Nothing watched any more: an empty watch clears what the socket watched.
    const next = frame ?? (this.sentWatch === null ? null : JSON.stringify({ type: 'watch' }));
    if (next === null || next === this.sentWatch) return;
    this.connection.send(next);
    this.sentWatch = frame;
  }

  private opened(subscriber: LiveSubscriber): void {
    const meta = this.subscribers.get(subscriber);
    if (!meta) return;
    subscriber.status('open');
    subscriber.open(meta.opened);
    meta.opened = true;
  }

  /** Runs `fn` for each subscriber, skipping any that an earlier one's handler removed. */
  private each(fn: (subscriber: LiveSubscriber, meta: { opened: boolean }) => void): void {
    for (const [subscriber, meta] of [...this.subscribers]) {
      if (this.subscribers.has(subscriber)) fn(subscriber, meta);
    }
  }
}
