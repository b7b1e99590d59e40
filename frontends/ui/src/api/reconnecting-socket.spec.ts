import { act } from '@testing-library/react';
import { FakeWebSocket, installFakeWebSocket } from '../testing/web-socket.js';
import { CONNECT_TIMEOUT_MS, ReconnectingSocket, UPTIME_MS } from './reconnecting-socket.js';

installFakeWebSocket();

const BACKOFF = { minDelayMs: 1000, maxDelayMs: 4000, growFactor: 2 };
const sockets = () => FakeWebSocket.instances;
const last = () => sockets().at(-1)!;
const elapse = (ms: number) => act(() => jest.advanceTimersByTime(ms));

function connect() {
  const calls: string[] = [];
  const socket = new ReconnectingSocket(
    'ws://test/ws/chat',
    {
      open: () => calls.push('open'),
      close: () => calls.push('close'),
      message: (event) => calls.push(`message ${String(event.data)}`),
    },
    BACKOFF,
  );
  return { socket, calls };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('ReconnectingSocket', () => {
  it('connects at once, reports open, messages and drops, and sends only while open', () => {
    const { socket, calls } = connect();
    expect(socket.readyState).toBe(WebSocket.CONNECTING);
    elapse(0);
    expect(sockets()).toHaveLength(1);
    expect(last().url).toBe('ws://test/ws/chat');
    socket.send('lost');
    last().open();
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.send('ping');
    last().serverSend('pong');
    last().serverClose();
    expect(last().sent).toEqual(['ping']);
    expect(calls).toEqual(['open', 'message pong', 'close']);
  });

  it('retries after a growing delay, capped, and counts again after a connection that lasted', () => {
    connect();
    elapse(0);
    last().serverClose();
    for (const delay of [1000, 2000, 4000, 4000]) {
      const before = sockets().length;
      elapse(delay - 1);
      expect(sockets()).toHaveLength(before);
      elapse(1);
      expect(sockets()).toHaveLength(before + 1);
      last().serverClose();
    }
    // Up for less than UPTIME_MS: the count goes on.
    elapse(4000);
    last().open();
    elapse(UPTIME_MS - 1);
    last().serverClose();
    elapse(3999);
    expect(sockets()).toHaveLength(6);
    elapse(1);
    expect(sockets()).toHaveLength(7);
    // Up for UPTIME_MS: the first delay again.
    last().open();
    elapse(UPTIME_MS);
    last().serverClose();
    elapse(999);
    expect(sockets()).toHaveLength(7);
    elapse(1);
    expect(sockets()).toHaveLength(8);
  });

  it('gives up an attempt that is not open after the timeout, and tries again', () => {
    const { calls } = connect();
    elapse(0);
    const stuck = last();
    elapse(CONNECT_TIMEOUT_MS - 1);
    expect(stuck.readyState).toBe(WebSocket.CONNECTING);
    elapse(1);
    expect(stuck.readyState).toBe(WebSocket.CLOSED);
    expect(calls).toEqual(['close']);
    elapse(1000);
    expect(sockets()).toHaveLength(2);
    // The given-up socket opening late changes nothing.
    stuck.open();
    expect(calls).toEqual(['close']);
  });

  it('once closed, says nothing more and tries no more', () => {
    const { socket, calls } = connect();
    elapse(0);
    last().open();
    socket.close();
    expect(socket.readyState).toBe(WebSocket.CLOSED);
    expect(last().readyState).toBe(WebSocket.CLOSED);
    last().serverClose();
    elapse(60_000);
    expect(sockets()).toHaveLength(1);
    expect(calls).toEqual(['open']);
  });

  it('closed before its first attempt, makes none', () => {
    const { socket } = connect();
    socket.close();
    elapse(60_000);
    expect(sockets()).toHaveLength(0);
  });
});
