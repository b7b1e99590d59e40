import {
  LIVE_CLIENT_PING,
  LIVE_EVENT,
  LIVE_SCOPE_USER,
  liveEventSchema,
  WS,
  type LiveEvent,
} from '@termpaste/contracts';
import { useEffect, useRef, useState } from 'react';
import { Badge } from '../components/badge.js';
import { ReconnectingSocket } from './reconnecting-socket.js';

/**
 * The live connection's state: `connecting` the first time, `open`, `reconnecting` after it dropped
 * (retried with a growing delay), `closed` while not wanted.
 */
export type LiveStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Reconnection backoff: a first retry after 1–2 s, each next one 1.5 times later, at most 30 s apart. */
export const LIVE_BACKOFF = {
  minDelayMs: 1000,
  maxDelayMs: 30_000,
  growFactor: 1.5,
} as const;

/**
 * Keep-alive: while open, the client pings every `intervalMs` (so proxies never see an idle socket and
 * close it), and the server answers. A socket that has heard nothing for `silenceMs` is taken for dead
 * (a laptop that slept, a network that changed without telling) and replaced.
 */
export const LIVE_HEARTBEAT = {
  intervalMs: 25_000,
  silenceMs: 60_000,
} as const;

/** `/ws/chat` on this page's host: wss on https, else ws (SPEC §7). */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'>, scope?: 'user'): string {
  const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${location.host}${WS.chat}${scope === LIVE_SCOPE_USER ? `?scope=${scope}` : ''}`;
}

/** One server frame as a live event, or null for anything else (ignored). */
export function parseLiveEvent(data: unknown): LiveEvent | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed = liveEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface UseLiveEventsOptions {
  /** The connection is open only while this is true (the chat popover: while its panel is open). */
  enabled: boolean;
  /** 'user': only the member's own events (notifications, unread count), no chat. */
  scope?: 'user';
  /** Every valid event but the heartbeat's pong. */
  onEvent: (event: LiveEvent) => void;
  /**
   * Called on every successful connection; `reconnected` is true after a drop, when events may have
   * been missed (refetch to catch up).
   */
  onOpen?: (reconnected: boolean) => void;
}

/**
 * Opens `/ws/chat` while `enabled`, hands every valid event to `onEvent`, and reconnects with backoff
 * when the connection drops (at once when the browser comes back online or the tab is shown again).
 * Returns the connection's status for the UI to show.
 */
export function useLiveEvents({ enabled, scope, onEvent, onOpen }: UseLiveEventsOptions): LiveStatus {
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
    let opened = false;
    let lastHeard = Date.now();

    const handleOpen = () => {
      lastHeard = Date.now();
      setStatus('open');
      handlers.current.onOpen?.(opened);
      opened = true;
    };
    const handleClose = () => setStatus('reconnecting');
    const handleMessage = (message: MessageEvent) => {
      lastHeard = Date.now();
      const event = parseLiveEvent(message.data);
      if (event && event.type !== LIVE_EVENT.pong) handlers.current.onEvent(event);
    };

    const connect = () =>
      new ReconnectingSocket(
        liveUrl(window.location, scope),
        { open: handleOpen, close: handleClose, message: handleMessage },
        // A jittered first retry, so a restarted server is not met by every page at once.
        { ...LIVE_BACKOFF, minDelayMs: LIVE_BACKOFF.minDelayMs * (1 + Math.random()) },
      );
    let socket = connect();

    /** A fresh socket at once, without waiting out the backoff. */
    const replace = () => {
      socket.close();
      setStatus(opened ? 'reconnecting' : 'connecting');
      socket = connect();
    };
    // Back online, or the tab shown again: a socket that is down is worth trying now.
    const retryNow = () => {
      if (socket.readyState !== WebSocket.OPEN) replace();
    };
    const handleVisibility = () => {
      if (document.visibilityState === 'visible') retryNow();
    };
    const heartbeat = setInterval(() => {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (Date.now() - lastHeard > LIVE_HEARTBEAT.silenceMs) replace();
      else socket.send(JSON.stringify(LIVE_CLIENT_PING));
    }, LIVE_HEARTBEAT.intervalMs);
    window.addEventListener('online', retryNow);
    document.addEventListener('visibilitychange', handleVisibility);

    return () => {
      clearInterval(heartbeat);
      window.removeEventListener('online', retryNow);
      document.removeEventListener('visibilitychange', handleVisibility);
      socket.close();
    };
  }, [enabled, scope]);

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
