/**
 * A WebSocket that comes back after a drop, as partysocket's ReconnectingWebSocket (same rules, a tenth
 * of the code): first attempt at once, then `minDelayMs` growing by `growFactor` up to `maxDelayMs`;
 * `UPTIME_MS` up resets the count; an attempt not open after `CONNECT_TIMEOUT_MS` is retried.
 */
export interface Backoff {
  minDelayMs: number;
  maxDelayMs: number;
  growFactor: number;
}

export interface SocketHandlers {
  open(): void;
  /** The connection dropped (or an attempt failed): another comes after the backoff. */
  close(): void;
  message(event: MessageEvent): void;
}

export const UPTIME_MS = 5000;
export const CONNECT_TIMEOUT_MS = 4000;

export class ReconnectingSocket {
  private socket: WebSocket | null = null;
  /** Attempts since the last connection that counted (stayed up UPTIME_MS). */
  private retries = 0;
  private stopped = false;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly url: string,
    private readonly handlers: SocketHandlers,
    private readonly backoff: Backoff,
  ) {
    this.later(() => this.connect(), 0);
  }

  /** The current connection's state (CONNECTING between attempts, CLOSED once closed). */
  get readyState(): number {
    if (this.stopped) return WebSocket.CLOSED;
    return this.socket?.readyState ?? WebSocket.CONNECTING;
  }

  /** Sends on an open connection; anything else is dropped (the caller checks readyState). */
  send(data: string): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(data);
  }

  /** Closes for good: no handler is called again, no attempt is made. */
  close(): void {
    this.stopped = true;
    this.clearTimers();
    this.drop();
  }

  private later(run: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  private clearTimers(): void {
    this.timers.forEach((timer) => clearTimeout(timer));
    this.timers.clear();
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    this.later(() => {
      if (socket.readyState !== WebSocket.OPEN) this.down();
    }, CONNECT_TIMEOUT_MS);
    // A socket given up on may still report: only the current one is listened to.
    const current = () => this.socket === socket;
    socket.addEventListener('open', () => {
      if (!current()) return;
      this.clearTimers();
      this.later(() => (this.retries = 0), UPTIME_MS);
      this.handlers.open();
    });
    socket.addEventListener('close', () => {
      if (current()) this.down();
    });
    socket.addEventListener('message', (event) => {
      if (current()) this.handlers.message(event);
    });
  }

  /** Forgets the current connection, closing it if need be, without a word to the handlers. */
  private drop(): void {
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState !== WebSocket.CLOSED && socket.readyState !== WebSocket.CLOSING) {
      socket.close();
    }
  }

  private down(): void {
    if (this.stopped) return;
    this.clearTimers();
    this.drop();
    this.handlers.close();
    this.retries += 1;
    const { minDelayMs, maxDelayMs, growFactor } = this.backoff;
    this.later(() => this.connect(), Math.min(minDelayMs * growFactor ** (this.retries - 1), maxDelayMs));
  }
}
