import { LIVE_SCOPE_USER, type LiveEvent } from '@termpaste/contracts';
import { openLiveSocket, type LiveStatus } from './live-socket.js';

/** One user of the live connection (a useLiveEvents call that is enabled). */
export interface LiveSubscriber {
  /** 'user': only the member's own events are needed; without it, the chat too. */
  scope?: 'user';
  status(status: LiveStatus): void;
  event(event: LiveEvent): void;
  /** `reconnected` is true when this subscriber had a connection before and may have missed events. */
  open(reconnected: boolean): void;
}

interface Entry extends LiveSubscriber {
  /** Whether this subscriber has seen a connection open: the next one is a reconnection to it. */
  opened: boolean;
}

/** What the socket must carry: nothing (no socket), the member's own events, or those and the chat. */
type Need = 'user' | 'all' | null;

/**
 * One live socket shared by its subscribers: open while any subscriber is, with the widest scope any of
 * them needs (the chat's if any needs it, else the member's own events), and every event handed to each
 * (they switch on the event's type, so one with the user scope ignores the chat). When the scope needed
 * changes, the socket is replaced by one of the new scope: closed first, so there is never more than one.
 */
export class LiveHub {
  private readonly subscribers = new Set<Entry>();
  private need: Need = null;
  private close: (() => void) | null = null;
  /** The socket's state as a new subscriber should see it. */
  private state: LiveStatus = 'closed';

  /** Adds a subscriber (opening or widening the socket if need be); the returned function removes it. */
  subscribe(subscriber: LiveSubscriber): () => void {
    const entry: Entry = { ...subscriber, opened: false };
    this.subscribers.add(entry);
    if (!this.update()) {
      // The socket it needs is already there: it joins as is.
      entry.status(this.state);
      if (this.state === 'open') this.opened(entry);
    }
    return () => {
      this.subscribers.delete(entry);
      this.update();
    };
  }

  /** Opens, replaces or closes the socket for what the subscribers now need; true if it did. */
  private update(): boolean {
    const need: Need =
      this.subscribers.size === 0
        ? null
        : [...this.subscribers].some((entry) => entry.scope !== LIVE_SCOPE_USER)
          ? 'all'
          : 'user';
    if (need === this.need) return false;
    this.close?.();
    this.close = null;
    this.need = need;
    this.state = need ? 'connecting' : 'closed';
    if (!need) return true;
    // Those that had a connection see a reconnection, and are told to catch up once the new one opens.
    this.each((entry) => entry.status(entry.opened ? 'reconnecting' : 'connecting'));
    this.close = openLiveSocket(need === 'user' ? LIVE_SCOPE_USER : undefined, {
      open: () => {
        this.state = 'open';
        this.each((entry) => this.opened(entry));
      },
      dropped: () => {
        this.state = 'reconnecting';
        this.each((entry) => entry.status('reconnecting'));
      },
      retrying: () => {
        this.state = 'reconnecting';
        this.each((entry) => entry.status(entry.opened ? 'reconnecting' : 'connecting'));
      },
      event: (event) => this.each((entry) => entry.event(event)),
    });
    return true;
  }

  private opened(entry: Entry): void {
    entry.status('open');
    entry.open(entry.opened);
    entry.opened = true;
  }

  /** Runs `fn` for each subscriber, skipping any that an earlier one's handler removed. */
  private each(fn: (entry: Entry) => void): void {
    for (const entry of [...this.subscribers]) {
      if (this.subscribers.has(entry)) fn(entry);
    }
  }
}
