import { afterEach, beforeEach, expect } from '@jest/globals';
import { act, waitFor } from '@testing-library/react';

/**
 * A WebSocket the test drives. The code under test creates it, sends on it and closes it as it would a
 * browser's; the test plays the server with open(), serverSend() and serverClose(). Installed as
 * `WebSocket` by installFakeWebSocket().
 */
export class FakeWebSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;

  /** Every socket created since the last reset(), oldest first. */
  static instances: FakeWebSocket[] = [];

  /** Forgets the sockets created so far. */
  static reset(): void {
    FakeWebSocket.instances = [];
  }

  readyState: number = FakeWebSocket.CONNECTING;
  binaryType: BinaryType = 'blob';
  /** The frames the code under test sent, in order. */
  readonly sent: string[] = [];

  constructor(
    readonly url: string,
    readonly protocols?: string | string[],
  ) {
    super();
    FakeWebSocket.instances.push(this);
  }

  send(data: string): void {
    this.sent.push(data);
  }

  /** The code under test closes the socket: it is closed at once, with no close event. */
  close(): void {
    this.readyState = FakeWebSocket.CLOSED;
  }

  /** The server accepts the connection. */
  open(): void {
    act(() => {
      this.readyState = FakeWebSocket.OPEN;
      this.dispatchEvent(new Event('open'));
    });
  }

  /** The server sends one frame: a string as is, anything else as JSON. */
  serverSend(data: unknown): void {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    act(() => {
      this.dispatchEvent(new MessageEvent('message', { data: text }));
    });
  }

  /** The server closes the connection; by default it is lost (1006, no close frame). */
  serverClose(code = 1006, reason = ''): void {
    act(() => {
      this.readyState = FakeWebSocket.CLOSED;
      this.dispatchEvent(new CloseEvent('close', { code, reason }));
    });
  }
}

/**
 * Makes `WebSocket` a FakeWebSocket, with no socket yet, for each test of the calling spec file, and
 * puts the real one back after it.
 */
export function installFakeWebSocket(): void {
  const realWebSocket = globalThis.WebSocket;
  beforeEach(() => {
    FakeWebSocket.reset();
    globalThis.WebSocket = FakeWebSocket as unknown as typeof WebSocket;
  });
  afterEach(() => {
    globalThis.WebSocket = realWebSocket;
  });
}

/** The sockets the code under test holds (not closed). */
export const openSockets = () =>
  FakeWebSocket.instances.filter((socket) => socket.readyState !== FakeWebSocket.CLOSED);

/**
 * Waits for socket number `index` to be created (useLiveEvents connects after a timer; a reconnect comes
 * after the backoff's first delay, one second with Math.random mocked to 0), opens it and returns it.
 */
export async function connectedSocket(index = 0): Promise<FakeWebSocket> {
  await waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThan(index), { timeout: 3000 });
  const socket = FakeWebSocket.instances[index]!;
  socket.open();
  return socket;
}
