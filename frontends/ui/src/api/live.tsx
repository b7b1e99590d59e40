import type { LiveEvent } from '@termpaste/contracts';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { Badge } from '../components/badge.js';
import { LiveHub } from './live-hub.js';
import type { LiveStatus } from './live-socket.js';

export interface UseLiveEventsOptions {
  /** The connection is open only while this is true (the chat popover: while its panel is open). */
  enabled: boolean;
  /** 'user': only the member's own events (notifications, unread count), no chat. */
  scope?: 'user';
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
 * Receives the live events from `/ws/chat` while `enabled`: every valid event goes to `onEvent`, and the
 * connection reconnects with backoff when it drops (at once when the browser comes back online or the
 * tab is shown again). Under LiveEventsProvider it shares the tab's one socket; without one (a bare test
 * render) it keeps a socket of its own. Returns the connection's status for the UI to show.
 */
export function useLiveEvents({ enabled, scope, onEvent, onOpen }: UseLiveEventsOptions): LiveStatus {
  const shared = useContext(LiveEventsContext);
  const [own] = useState(() => new LiveHub());
  const hub = shared ?? own;
  const [status, setStatus] = useState<LiveStatus>(enabled ? 'connecting' : 'closed');
  const handlers = useRef({ onEvent, onOpen });
  useEffect(() => {
    handlers.current = { onEvent, onOpen };
  });

  useEffect(() => {
    if (!enabled) {
      setStatus('closed');
      return;
    }
    setStatus('connecting');
    return hub.subscribe({
      scope,
      status: setStatus,
      event: (event) => handlers.current.onEvent(event),
      open: (reconnected) => handlers.current.onOpen?.(reconnected),
    });
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
