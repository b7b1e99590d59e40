import { LIVE_EVENT, type ChatMessage } from '@termpaste/contracts';
import { act, render, renderHook, screen } from '@testing-library/react';
import { FakeWebSocket, installFakeWebSocket, openSockets } from '../testing/web-socket.js';
import { LiveBadge, LiveEventsProvider, useLiveEvents, type UseLiveEventsOptions } from './live.js';
import { LIVE_HEARTBEAT, liveUrl, parseLiveEvent, type LiveStatus } from './live-socket.js';

const sockets = () => FakeWebSocket.instances;
const last = () => sockets().at(-1)!;
/** Lets timers and the promise chains they start run (the socket connects after a timer). */
const elapse = (ms: number) => act(() => jest.advanceTimersByTimeAsync(ms));

const chatMessage: ChatMessage = {
  id: 1,
  content: 'hello',
  createdAt: '2026-01-01T00:00:00.000Z',
  author: null,
  hidden: false,
};

installFakeWebSocket();

beforeEach(() => {
  jest.useFakeTimers();
  // No jitter: the first retry comes after exactly LIVE_BACKOFF.minDelayMs.
  jest.spyOn(Math, 'random').mockReturnValue(0);
});

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

function renderLive(initial: { enabled: boolean; scope?: 'user' }) {
  const onEvent = jest.fn();
  const onOpen = jest.fn();
  const hook = renderHook(
    (props: { enabled: boolean; scope?: 'user' }) => useLiveEvents({ ...props, onEvent, onOpen }),
    { initialProps: initial },
  );
  return { ...hook, onEvent, onOpen };
}

describe('liveUrl and parseLiveEvent', () => {
  it('uses wss on https and ws otherwise, with the user scope when asked', () => {
    expect(liveUrl({ protocol: 'https:', host: 'termpaste.example' })).toBe(
      'wss://termpaste.example/ws/chat',
    );
    expect(liveUrl({ protocol: 'http:', host: 'localhost:3000' }, 'user')).toBe(
      'ws://localhost:3000/ws/chat?scope=user',
    );
  });

  it('reads valid events only', () => {
    expect(parseLiveEvent(JSON.stringify({ type: 'unread_count', count: 2 }))).toEqual({
      type: 'unread_count',
      count: 2,
    });
    expect(parseLiveEvent('not json')).toBeNull();
    expect(parseLiveEvent(JSON.stringify({ type: 'unread_count', count: -1 }))).toBeNull();
    expect(parseLiveEvent(new ArrayBuffer(2))).toBeNull();
  });
});

describe('useLiveEvents', () => {
  it('opens no socket while not enabled', async () => {
    const { result } = renderLive({ enabled: false });
    await elapse(5000);
    expect(sockets()).toHaveLength(0);
    expect(result.current).toBe('closed');
  });

  it('connects to /ws/chat, reports the status and hands over valid events but pongs', async () => {
    const { result, onEvent, onOpen } = renderLive({ enabled: true });
    expect(result.current).toBe('connecting');
    await elapse(0);
    expect(sockets()).toHaveLength(1);
    expect(last().url).toBe('ws://localhost/ws/chat');

    last().open();
    expect(result.current).toBe('open');
    expect(onOpen).toHaveBeenCalledWith(false);

    last().serverSend({ type: LIVE_EVENT.newMessage, message: chatMessage });
    last().serverSend('garbage');
    last().serverSend({ type: 'who_knows' });
    last().serverSend({ type: LIVE_EVENT.pong });
    expect(onEvent).toHaveBeenCalledTimes(1);
    expect(onEvent).toHaveBeenCalledWith({ type: 'new_message', message: chatMessage });
  });

  it('asks for the member scope', async () => {
    renderLive({ enabled: true, scope: 'user' });
    await elapse(0);
    expect(last().url).toBe('ws://localhost/ws/chat?scope=user');
  });

  it('reconnects with a growing delay after a drop, and says it reconnected', async () => {
    const { result, onOpen } = renderLive({ enabled: true });
    await elapse(0);
    last().open();

    last().serverClose();
    expect(result.current).toBe('reconnecting');
    await elapse(999);
    expect(sockets()).toHaveLength(1);
    await elapse(1);
    expect(sockets()).toHaveLength(2);

    // The second attempt fails too: the next one waits 1.5 times longer.
    last().serverClose();
    await elapse(1499);
    expect(sockets()).toHaveLength(2);
    await elapse(1);
    expect(sockets()).toHaveLength(3);

    last().open();
    expect(result.current).toBe('open');
    expect(onOpen.mock.calls).toEqual([[false], [true]]);
  });

  it('reconnects at once when the browser comes back online', async () => {
    const { result } = renderLive({ enabled: true });
    await elapse(0);
    last().open();
    last().serverClose();
    await elapse(1000);
    last().serverClose();
    expect(sockets()).toHaveLength(2);

    // The next retry is 1.5 s away; coming back online tries at once.
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await elapse(0);
    expect(sockets()).toHaveLength(3);
    expect(result.current).toBe('reconnecting');
    last().open();
    expect(result.current).toBe('open');

    // Online again while open: nothing to do.
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await elapse(0);
    expect(sockets()).toHaveLength(3);
  });

  it('pings while open and replaces a socket that went silent', async () => {
    const { result, onOpen } = renderLive({ enabled: true });
    await elapse(0);
    const first = last();
    first.open();

    await elapse(LIVE_HEARTBEAT.intervalMs);
    expect(first.sent).toEqual(['{"type":"ping"}']);
    first.serverSend({ type: LIVE_EVENT.pong });

    // Heard at 25 s, then silent: still pinging at 75 s, replaced at 100 s (over 60 s without a word).
    await elapse(LIVE_HEARTBEAT.intervalMs * 2);
    expect(first.sent).toHaveLength(3);
    expect(sockets()).toHaveLength(1);
    await elapse(LIVE_HEARTBEAT.intervalMs);
    expect(first.readyState).toBe(3);
    expect(result.current).toBe('reconnecting');
    // (A zero-delay timer set while timers run is due 1 ms later under fake timers.)
    await elapse(1);
    expect(sockets()).toHaveLength(2);
    last().open();
    expect(result.current).toBe('open');
    expect(onOpen.mock.calls).toEqual([[false], [true]]);
  });

  it('closes the socket when disabled or unmounted, and stops reconnecting', async () => {
    const { result, rerender, unmount } = renderLive({ enabled: true });
    await elapse(0);
    last().open();

    rerender({ enabled: false });
    expect(result.current).toBe('closed');
    expect(sockets()[0]!.readyState).toBe(3);
    await elapse(60_000);
    expect(sockets()).toHaveLength(1);

    rerender({ enabled: true });
    await elapse(0);
    expect(sockets()).toHaveLength(2);
    unmount();
    expect(sockets()[1]!.readyState).toBe(3);
    await elapse(60_000);
    expect(sockets()).toHaveLength(2);
  });
});

type Wanted = Pick<UseLiveEventsOptions, 'enabled' | 'scope' | 'watch'>;
/** A tab's subscribers as they are: the shell's member events, the notifications screen, a chat. */
type Tab = { shell: Wanted; notifications: Wanted; chat: Wanted };
const names = ['shell', 'notifications', 'chat'] as const;

/** The three subscribers in one tab, under the provider (or not), each with its own spies. */
function renderTab(initial: Tab, { provider = true } = {}) {
  const spies = Object.fromEntries(
    names.map((name) => [name, { onEvent: jest.fn(), onOpen: jest.fn() }]),
  ) as {
    [name in (typeof names)[number]]: { onEvent: jest.Mock; onOpen: jest.Mock };
  };
  const hook = renderHook(
    (tab: Tab) => ({
      shell: useLiveEvents({ ...tab.shell, ...spies.shell }),
      notifications: useLiveEvents({ ...tab.notifications, ...spies.notifications }),
      chat: useLiveEvents({ ...tab.chat, ...spies.chat }),
    }),
    { initialProps: initial, ...(provider ? { wrapper: LiveEventsProvider } : {}) },
  );
  return { ...hook, spies };
}

const member: Wanted = { enabled: true, scope: 'user' };
const off: Wanted = { enabled: false };
const chat: Wanted = { enabled: true };
const unread = { type: LIVE_EVENT.unreadCount, count: 2 };

describe('LiveEventsProvider', () => {
  it('gives the shell and the notifications screen one user-scoped socket, and each its events', async () => {
    const { result, spies } = renderTab({ shell: member, notifications: member, chat: off });
    await elapse(0);
    expect(sockets()).toHaveLength(1);
    expect(last().url).toBe('ws://localhost/ws/chat?scope=user');
    expect(result.current).toEqual({ shell: 'connecting', notifications: 'connecting', chat: 'closed' });

    last().open();
    expect(result.current).toEqual({ shell: 'open', notifications: 'open', chat: 'closed' });
    expect(spies.shell.onOpen.mock.calls).toEqual([[false]]);
    expect(spies.notifications.onOpen.mock.calls).toEqual([[false]]);

    last().serverSend(unread);
    last().serverSend({ type: LIVE_EVENT.pong });
    expect(spies.shell.onEvent.mock.calls).toEqual([[unread]]);
    expect(spies.notifications.onEvent.mock.calls).toEqual([[unread]]);
    // A disabled subscriber gets nothing.
    expect(spies.chat.onEvent).not.toHaveBeenCalled();
    expect(spies.chat.onOpen).not.toHaveBeenCalled();
  });

  it('joins a socket already open: no new one, open at once', async () => {
    const { result, rerender, spies } = renderTab({ shell: member, notifications: off, chat: off });
    await elapse(0);
    last().open();

    rerender({ shell: member, notifications: member, chat: off });
    await elapse(5000);
    expect(sockets()).toHaveLength(1);
    expect(result.current.notifications).toBe('open');
    expect(spies.notifications.onOpen.mock.calls).toEqual([[false]]);
    expect(spies.shell.onOpen.mock.calls).toEqual([[false]]);
  });

  it('turns into one full socket while a chat is open, and back to the user scope after', async () => {
    const { result, rerender, spies } = renderTab({ shell: member, notifications: member, chat: off });
    await elapse(0);
    const userScoped = last();
    userScoped.open();

    rerender({ shell: member, notifications: member, chat });
    expect(userScoped.readyState).toBe(FakeWebSocket.CLOSED);
    expect(result.current).toEqual({
      shell: 'reconnecting',
      notifications: 'reconnecting',
      chat: 'connecting',
    });
    await elapse(0);
    expect(sockets()).toHaveLength(2);
    expect(openSockets()).toEqual([last()]);
    const full = last();
    expect(full.url).toBe('ws://localhost/ws/chat');

    full.open();
    expect(result.current).toEqual({ shell: 'open', notifications: 'open', chat: 'open' });
    // The member's subscribers may have missed events while the socket changed: they catch up.
    expect(spies.shell.onOpen.mock.calls).toEqual([[false], [true]]);
    expect(spies.notifications.onOpen.mock.calls).toEqual([[false], [true]]);
    expect(spies.chat.onOpen.mock.calls).toEqual([[false]]);

    const line = { type: LIVE_EVENT.newMessage, message: chatMessage };
    full.serverSend(line);
    full.serverSend(unread);
    for (const name of names) expect(spies[name].onEvent.mock.calls).toEqual([[line], [unread]]);

    rerender({ shell: member, notifications: member, chat: off });
    expect(full.readyState).toBe(FakeWebSocket.CLOSED);
    expect(result.current.chat).toBe('closed');
    await elapse(0);
    expect(sockets()).toHaveLength(3);
    expect(openSockets()).toEqual([last()]);
    expect(last().url).toBe('ws://localhost/ws/chat?scope=user');
    last().open();
    last().serverSend(unread);
    expect(spies.chat.onEvent).toHaveBeenCalledTimes(2);
    expect(spies.shell.onEvent).toHaveBeenCalledTimes(3);
    expect(spies.shell.onOpen.mock.calls).toEqual([[false], [true], [true]]);
  });

  it('reconnects the shared socket after a drop, and tells each subscriber it reconnected', async () => {
    const { result, spies } = renderTab({ shell: member, notifications: member, chat });
    await elapse(0);
    expect(sockets()).toHaveLength(1);
    last().open();

    last().serverClose();
    expect(result.current).toEqual({
      shell: 'reconnecting',
      notifications: 'reconnecting',
      chat: 'reconnecting',
    });
    await elapse(999);
    expect(sockets()).toHaveLength(1);
    await elapse(1);
    expect(sockets()).toHaveLength(2);
    last().open();
    expect(result.current).toEqual({ shell: 'open', notifications: 'open', chat: 'open' });
    for (const name of names) expect(spies[name].onOpen.mock.calls).toEqual([[false], [true]]);
  });

  it('closes the socket when the last subscriber leaves, and stops reconnecting', async () => {
    const { rerender, unmount } = renderTab({ shell: member, notifications: off, chat });
    await elapse(0);
    last().open();

    rerender({ shell: off, notifications: off, chat: off });
    expect(openSockets()).toHaveLength(0);
    await elapse(60_000);
    expect(sockets()).toHaveLength(1);

    rerender({ shell: member, notifications: off, chat: off });
    await elapse(0);
    expect(openSockets()).toHaveLength(1);
    unmount();
    expect(openSockets()).toHaveLength(0);
    await elapse(60_000);
    expect(sockets()).toHaveLength(2);
  });

  it('without a provider, each subscriber keeps a socket of its own, as before', async () => {
    renderTab({ shell: member, notifications: member, chat }, { provider: false });
    await elapse(0);
    expect(sockets().map((socket) => socket.url)).toEqual([
      'ws://localhost/ws/chat?scope=user',
      'ws://localhost/ws/chat?scope=user',
      'ws://localhost/ws/chat',
    ]);
  });
});

describe('LiveBadge', () => {
  it.each<[LiveStatus, string]>([
    ['open', 'LIVE'],
    ['connecting', 'CONNECTING...'],
    ['reconnecting', 'RECONNECTING...'],
    ['closed', 'OFFLINE'],
  ])('reads %s as %s', (status, text) => {
    render(<LiveBadge status={status} />);
    expect(screen.getByRole('status')).toHaveTextContent(text);
    expect(screen.getByRole('status')).toHaveClass(`tp-live--${status}`);
  });
});

describe('watching what the page shows', () => {
  const frames = (socket: FakeWebSocket) =>
    socket.sent
      .map((frame) => JSON.parse(frame) as { type: string })
      .filter((frame) => frame.type !== 'ping');

  it("opens a visitor's page a public socket, and says what it shows once open", async () => {
    renderTab({
      shell: off,
      notifications: { enabled: true, scope: 'public', watch: { thread: 5 } },
      chat: off,
    });
    await elapse(0);
    expect(last().url).toBe('ws://localhost/ws/chat?scope=public');
    expect(frames(last())).toEqual([]);
    last().open();
    expect(frames(last())).toEqual([{ type: 'watch', thread: 5, cards: [], lists: false }]);
  });

  it('sends one frame for every subscriber, again when it changes and after a reconnection; an empty one when nothing is shown', async () => {
    const lists: Wanted = { enabled: true, scope: 'public', watch: { cards: [1, 2], lists: true } };
    const paste = (thread: number): Wanted => ({ enabled: true, scope: 'public', watch: { thread } });
    const { rerender } = renderTab({ shell: member, notifications: lists, chat: paste(5) });
    await elapse(0);
    // The widest scope any subscriber needs: the member's own events.
    expect(sockets()).toHaveLength(1);
    expect(last().url).toBe('ws://localhost/ws/chat?scope=user');
    last().open();
    expect(frames(last())).toEqual([{ type: 'watch', thread: 5, cards: [1, 2], lists: true }]);

    rerender({ shell: member, notifications: lists, chat: paste(6) });
    rerender({
      shell: member,
      notifications: { ...lists, watch: { cards: [1, 2], lists: true } },
      chat: paste(6),
    });
    expect(frames(last())).toEqual([
      { type: 'watch', thread: 5, cards: [1, 2], lists: true },
      { type: 'watch', thread: 6, cards: [1, 2], lists: true },
    ]);
    expect(sockets()).toHaveLength(1);

    last().serverClose();
    await elapse(1000);
    expect(sockets()).toHaveLength(2);
    last().open();
    expect(frames(last())).toEqual([{ type: 'watch', thread: 6, cards: [1, 2], lists: true }]);

    rerender({ shell: member, notifications: off, chat: off });
    expect(frames(last()).at(-1)).toEqual({ type: 'watch' });
    expect(sockets()).toHaveLength(2);
  });
});
