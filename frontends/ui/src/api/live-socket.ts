import { LIVE_CLIENT_PING, LIVE_EVENT, liveEventSchema, WS, type LiveEvent } from '@termpaste/contracts';
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

/**
 * What a socket carries: the chat and the member's own events (no scope), the member's own only
 * (`user`), or, a visitor's, public events only (`public`); each gets the public events it watches.
 */
export type LiveScope = 'user' | 'public';

/** `/ws/chat` on this page's host: wss on https, else ws, with its scope if any. */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'>, scope?: LiveScope): string {
  const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${location.host}${WS.chat}${scope ? `?scope=${scope}` : ''}`;
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

export interface LiveSocketHandlers {
  /** Connected, the first time or again. */
  open(): void;
  /** The connection dropped (or an attempt failed): another comes after the backoff. */
  dropped(): void;
  /** The socket was given up on (silent, or down when the browser came back): a fresh one is tried now. */
  retrying(): void;
  /** Every valid event but the heartbeat's pong. */
  event(event: LiveEvent): void;
}

/** An open live socket's handle: send a frame on it (dropped unless connected), or close it for good. */
export interface LiveConnection {
  send(frame: string): void;
  close(): void;
}

/**
 * Opens `/ws/chat` (with its scope if asked) and keeps it up until `close()`: reconnects with backoff
 * when it drops, at once when the browser comes back online or the tab is shown again, and pings while
 * open, replacing a socket that went silent.
 */
export function openLiveSocket(scope: LiveScope | undefined, handlers: LiveSocketHandlers): LiveConnection {
  let lastHeard = Date.now();

  const connect = () =>
    new ReconnectingSocket(
      liveUrl(window.location, scope),
      {
        open: () => {
          lastHeard = Date.now();
          handlers.open();
        },
        close: () => handlers.dropped(),
        message: (message: MessageEvent) => {
          lastHeard = Date.now();
          const event = parseLiveEvent(message.data);
          if (event && event.type !== LIVE_EVENT.pong) handlers.event(event);
        },
      },
      // A jittered first retry, so a restarted server is not met by every page at once.
      { ...LIVE_BACKOFF, minDelayMs: LIVE_BACKOFF.minDelayMs * (1 + Math.random()) },
    );
  let socket = connect();

  /** A fresh socket at once, without waiting out the backoff. */
  const replace = () => {
    socket.close();
    handlers.retrying();
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

  return {
    send: (frame) => socket.send(frame),
    close: () => {
      clearInterval(heartbeat);
      window.removeEventListener('online', retryNow);
      document.removeEventListener('visibilitychange', handleVisibility);
      socket.close();
    },
  };
}
