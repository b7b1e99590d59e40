import { LIVE_SCOPE_USER, liveEventSchema, WS, type LiveEvent } from '@termpaste/contracts';
import ReconnectingWebSocket from 'partysocket/ws';
import { useEffect, useRef, useState } from 'react';
import { Badge } from '../components/badge.js';

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
  onEvent: (event: LiveEvent) => void;
  /**
   * Called on every successful connection; `reconnected` is true after a drop, when events may have
   * been missed (refetch to catch up).
   */
  onOpen?: (reconnected: boolean) => void;
}

/**
 * Opens `/ws/chat` while `enabled`, hands every valid event to `onEvent`, and reconnects with backoff
 * when the connection drops. Returns the connection's status for the UI to show.
 */
export function useLiveEvents({ enabled, scope, onEvent, onOpen }: UseLiveEventsOptions): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>(enabled ? 'connecting' : 'closed');
  const handlers = useRef({ onEvent, onOpen });
  handlers.current = { onEvent, onOpen };

  useEffect(() => {
    if (!enabled) {
      setStatus('closed');
      return;
    }
    setStatus('connecting');
    let opened = false;
    const socket = new ReconnectingWebSocket(liveUrl(window.location, scope), undefined, {
      minReconnectionDelay: LIVE_BACKOFF.minDelayMs * (1 + Math.random()),
      maxReconnectionDelay: LIVE_BACKOFF.maxDelayMs,
      reconnectionDelayGrowFactor: LIVE_BACKOFF.growFactor,
    });
    const handleOpen = () => {
      setStatus('open');
      handlers.current.onOpen?.(opened);
      opened = true;
    };
    const handleClose = () => setStatus('reconnecting');
    const handleMessage = (message: MessageEvent) => {
      const event = parseLiveEvent(message.data);
      if (event) handlers.current.onEvent(event);
    };
    socket.addEventListener('open', handleOpen);
    socket.addEventListener('close', handleClose);
    socket.addEventListener('message', handleMessage);
    return () => {
      socket.removeEventListener('open', handleOpen);
      socket.removeEventListener('close', handleClose);
      socket.removeEventListener('message', handleMessage);
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
