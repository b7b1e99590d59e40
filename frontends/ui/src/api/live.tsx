import type { LiveEvent, LiveWatch } from '@termpaste/contracts';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { Badge } from '../components/badge.js';
import { LiveHub, type LiveSubscriber } from './live-hub.js';
import type { LiveScope, LiveStatus } from './live-socket.js';

export interface UseLiveEventsOptions {
  /** The connection is open only while this is true (the chat popover: while its panel is open). */
  enabled: boolean;
  /**
   * 'user': only the member's own events (notifications, unread count), no chat; 'public': only the
   * public events of what `watch` names (open to visitors too). Without it: the chat too.
   */
  scope?: LiveScope;
  /**
   * What the page shows (a paste, cards of a list, the lists): the tab's socket watches it, so the
   * server sends the public events of those pastes. May change without reconnecting.
   */
  watch?: LiveWatch;
  /** Every valid event but the heartbeat's pong. */
  onEvent: (event: LiveEvent) => void;
  /**
   * Called on every successful connection (at once when joining the tab's socket open already);
   * `reconnected` is true after a drop or a change of socket, when events may have been missed (refetch
   * to catch up).
   */
  onOpen?: (reconnected: boolean) => void;
}

const LiveEventsContext = createContext<LiveHub | null>(null);

/**
 * The tab's one live socket (inside UiProvider, which the shell mounts once; @termpaste/ui is a
 * singleton, so every remote's screens share it): each useLiveEvents below it subscribes to this socket
 * instead of opening its own.
 */
export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const [hub] = useState(() => new LiveHub());
  return <LiveEventsContext.Provider value={hub}>{children}</LiveEventsContext.Provider>;
}

/**
 * Live events from `/ws/chat` while `enabled`, each valid one to `onEvent`; reconnects with backoff (at
 * once when back online or shown). Shares the tab's socket under LiveEventsProvider. Returns the status.
 */
export function useLiveEvents({ enabled, scope, watch, onEvent, onOpen }: UseLiveEventsOptions): LiveStatus {
  const shared = useContext(LiveEventsContext);
  const [own] = useState(() => new LiveHub());
  const hub = shared ?? own;
  const [status, setStatus] = useState<LiveStatus>(enabled ? 'connecting' : 'closed');
  const handlers = useRef({ onEvent, onOpen });
  const subscriber = useRef<LiveSubscriber | null>(null);
  const watched = useRef(watch);
  useEffect(() => {
    handlers.current = { onEvent, onOpen };
  });
  // What is watched changes without a new subscription (the socket stays): compared by value.
  const watchKey = watch ? JSON.stringify(watch) : '';
  useEffect(() => {
    watched.current = watch;
    if (subscriber.current) hub.watchChanged(subscriber.current, watch);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- watchKey stands for watch's value
  }, [hub, watchKey]);

  useEffect(() => {
    if (!enabled) {
      setStatus('closed');
      return;
    }
    setStatus('connecting');
    const mine: LiveSubscriber = {
      scope,
      watch: watched.current,
      status: setStatus,
      event: (event) => handlers.current.onEvent(event),
      open: (reconnected) => handlers.current.onOpen?.(reconnected),
    };
    subscriber.current = mine;
    const unsubscribe = hub.subscribe(mine);
    return () => {
      subscriber.current = null;
      unsubscribe();
    };
  }, [hub, enabled, scope]);

  return status;
}

const STATUS_TEXT: Record<LiveStatus, string> = {
  connecting: 'CONNECTING...',
  open: 'LIVE',
  reconnecting: 'RECONNECTING...',
  closed: 'OFFLINE',
};

/** The live connection's state as a badge: LIVE when open, RECONNECTING... while it retries. */
export function LiveBadge({ status }: { status: LiveStatus }) {
  return (
    <Badge
      variant={status === 'open' ? 'accent' : status === 'reconnecting' ? 'warning' : 'muted'}
      className={`tp-live tp-live--${status}`}
      role="status"
      aria-live="polite"
    >
      {STATUS_TEXT[status]}
    </Badge>
  );
}
