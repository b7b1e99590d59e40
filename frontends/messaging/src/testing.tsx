/**
 * Test support for the messaging specs: contract-typed fixtures, a recording fetch stub, a fake
 * WebSocket the test drives, the toast check and one way to render a screen. Only specs import it, so
 * the build (src/index.ts and the exposed src/screens.tsx) never bundles it.
 *
 * Importing it registers, for the importing spec file, a beforeEach that installs the fake WebSocket and
 * an afterEach that clears the toasts and puts the real fetch and WebSocket back.
 */
import type {
  ChatMessage,
  CurrentUser,
  LiveEvent,
  Notification,
  PrivateMessage,
  PublicAuthor,
} from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, currentUserQuery, UiProvider } from '@termpaste/ui';
import type { QueryClient } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { resetToastsForTests } from '../../ui/src/components/toast-store';

export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

// ---- Fixtures: override what a test is about.

/** trinity (id 3) as others see her: 12 points, no premium grade. */
export function sampleAuthor(overrides: Partial<PublicAuthor> = {}): PublicAuthor {
  return {
    id: 3,
    username: 'trinity',
    avatarUrl: null,
    profileImageUrl: null,
    firstName: null,
    lastName: null,
    reputation: 12,
    activePremiumRank: null,
    ...overrides,
  };
}

/** neo (id 7, the signed-in sampleCurrentUser) as others see him. */
export const neo = () => sampleAuthor({ id: 7, username: 'neo', reputation: 42 });

/** Message 21 from trinity to neo, 'meet at the construct', unread, two hours old. */
export function sampleMessage(overrides: Partial<PrivateMessage> = {}): PrivateMessage {
  return {
    id: 21,
    sender: sampleAuthor(),
    recipient: neo(),
    subject: 'meet at the construct',
    content: 'Bring the **red** pill.',
    createdAt: minutesAgo(120),
    isRead: false,
    ...overrides,
  };
}

/** Notification 31: trinity replied on paste 5, unread, ten minutes old. */
export function sampleNotification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: 31,
    type: 'reply',
    content: 'trinity replied to your paste "nmap cheatsheet"',
    isRead: false,
    createdAt: minutesAgo(10),
    threadId: 5,
    actor: sampleAuthor(),
    ...overrides,
  };
}

/** A chat line by trinity; its text and age follow its id ('chat line 41', 41 minutes before the hour). */
export function sampleChat(overrides: Partial<ChatMessage> = {}): ChatMessage {
  const id = overrides.id ?? 41;
  return {
    id,
    content: `chat line ${id}`,
    createdAt: minutesAgo(100 - id),
    author: sampleAuthor(),
    ...overrides,
  };
}

// ---- fetch

/** One request the screen made; `body` is the parsed JSON body (undefined without one). */
export interface FetchCall {
  method: string;
  url: string;
  body: unknown;
}

/** The stub's answer: 200 and `{}` by default; a string body is sent as is, anything else as JSON. */
export interface FetchAnswer {
  status?: number;
  body?: unknown;
}

const realFetch = globalThis.fetch;

/** Replaces fetch: records each call and answers with the handler's status and body. */
export function stubFetch(handler: (call: FetchCall) => FetchAnswer | Promise<FetchAnswer>): FetchCall[] {
  const calls: FetchCall[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: FetchCall = {
      method: init?.method ?? 'GET',
      url: String(input),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const { status = 200, body = {} } = await handler(call);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: '',
      text: async () => text,
      json: async () => JSON.parse(text),
    } as Response;
  }) as typeof fetch;
  return calls;
}

/** A promise the test settles: a request that stays pending until `resolve` is called. */
export function deferred<T = FetchAnswer>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** The calls that write (everything but GET). */
export const writes = (calls: FetchCall[]) => calls.filter((call) => call.method !== 'GET');

/** The GETs of one URL. */
export const reads = (calls: FetchCall[], url: string) =>
  calls.filter((call) => call.method === 'GET' && call.url === url);

/** A NestJS-style error body. */
export const errorBody = (statusCode: number, message: string) => ({ statusCode, message });

// ---- WebSocket

/** A WebSocket the test drives: it opens, receives events and drops when told to. */
export class FakeWebSocket extends EventTarget {
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  binaryType = 'blob';
  readonly sent: string[] = [];
  constructor(readonly url: string) {
    super();
    FakeWebSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  /** The server accepts the connection. */
  open() {
    act(() => {
      this.readyState = 1;
      this.dispatchEvent(new Event('open'));
    });
  }
  /** The server sends one event. */
  receive(event: LiveEvent) {
    act(() => {
      this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(event) }));
    });
  }
  /** The connection is lost. */
  drop() {
    act(() => {
      this.readyState = 3;
      this.dispatchEvent(new CloseEvent('close', { code: 1006 }));
    });
  }
}

/** Sockets the screen holds (not closed). */
export const openSockets = () => FakeWebSocket.instances.filter((socket) => socket.readyState !== 3);

/**
 * Waits for the screen's socket number `index` to be created (it connects after a timer; a reconnect
 * after the backoff's first delay, one second with Math.random mocked to 0), opens it and returns it.
 */
export async function connectedSocket(index = 0): Promise<FakeWebSocket> {
  await waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThan(index), { timeout: 3000 });
  const socket = FakeWebSocket.instances[index]!;
  socket.open();
  return socket;
}

// ---- toasts

/** Waits for the toast on screen (one at a time) to read this title, and this description if given. */
export async function expectToast(title: string, description?: string) {
  await waitFor(() => {
    const shown = document.querySelector('.tp-toast');
    expect(shown?.querySelector('.tp-toast__title')?.textContent).toBe(title);
    if (description !== undefined) {
      expect(shown?.querySelector('.tp-toast__description')?.textContent).toBe(description);
    }
  });
}

/**
 * The unauthorized rule (SPEC §8) as a test sees it: the toast, then the browser sent to /api/login
 * after 0.5 s (jsdom cannot navigate: it reports the attempt).
 */
export async function expectLoginRedirect() {
  const jsdomError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    await expectToast('Unauthorized', 'You are logged out. Logging in again...');
    await waitFor(
      () => expect(jsdomError.mock.calls.map((call) => String(call[0])).join('\n')).toContain('navigation'),
      { timeout: 2000 },
    );
  } finally {
    jsdomError.mockRestore();
  }
}

const realWebSocket = globalThis.WebSocket;

beforeEach(() => {
  FakeWebSocket.instances = [];
  globalThis.WebSocket = FakeWebSocket as unknown as typeof WebSocket;
});

afterEach(() => {
  act(() => resetToastsForTests());
  globalThis.fetch = realFetch;
  globalThis.WebSocket = realWebSocket;
});

// ---- rendering

/** Where the router is (path and query), as the status 'location'. */
export function Location() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

export interface RenderScreenOptions {
  /** The address the router starts at; '/' by default. */
  path?: string;
  /** The route pattern(s) that show the element: the path without its query by default. */
  route?: string | string[];
  /** The query client, seeded by the test; a new one by default. */
  client?: QueryClient;
  /** The signed-in member, null when signed out; sampleCurrentUser() (neo, id 7) by default. */
  user?: CurrentUser | null;
}

/**
 * Renders a screen as the shell does (UiProvider, router) with the current user in the cache. Any address
 * the routes do not match shows <Location />, so a test can read where the screen navigated to.
 * Returns the query client and a user-event instance.
 */
export function renderScreen(
  element: ReactElement,
  {
    path = '/',
    route = path.replace(/\?.*$/, ''),
    client = createQueryClient(),
    user = sampleCurrentUser(),
  }: RenderScreenOptions = {},
) {
  client.setQueryData(currentUserQuery.queryKey, user);
  render(
    <UiProvider queryClient={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          {[route].flat().map((pattern) => (
            <Route key={pattern} path={pattern} element={element} />
          ))}
          <Route path="*" element={<Location />} />
        </Routes>
      </MemoryRouter>
    </UiProvider>,
  );
  return { client, user: userEvent.setup() };
}
