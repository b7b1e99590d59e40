import { setTimeout as sleep } from 'node:timers/promises';
import { API, type CurrentUser, LIVE_EVENT, type LiveEvent, WS } from '@termpaste/contracts';
import WebSocket from 'ws';
import { type Browser, newAccount, sessionCookie, verifiedAfterRegistration } from './accounts.js';
import type { TestApp } from './test-app.js';
import { waitFor } from './wait-for.js';

/** A member signed in through the API, with the session cookie a browser would send on the upgrade. */
export interface LiveUser {
  user: CurrentUser;
  browser: Browser;
  /** `termpaste.sid=…` */
  cookie: string;
}

/** Registers a member (verified by mail, as registered() does) and keeps their session cookie. */
export async function liveUser(t: TestApp): Promise<LiveUser> {
  const browser = t.browser();
  const account = newAccount();
  const res = await browser.post(API.register).send(account).expect(201);
  const cookie = sessionCookie(res)?.split(';')[0];
  if (!cookie) throw new Error('registration set no session cookie');
  const user = await verifiedAfterRegistration(t, browser, account, res.body as CurrentUser);
  return { user, browser, cookie };
}

/** The `ws://` URL of the app's live socket (or of another path on it). */
export function liveUrl(t: Pick<TestApp, 'url'>, path: string = WS.chat): string {
  return t.url.replace(/^http/, 'ws') + path;
}

export interface ConnectOptions {
  /** The session cookie; none: a visitor. */
  cookie?: string;
  /** The Origin header; default a browser's on our site (TestApp.origin), null: none at all. */
  origin?: string | null;
  path?: string;
  /** Answer the server's pings (default true); false plays a client that stopped responding. */
  autoPong?: boolean;
  /** More request headers (a Host of another name, say). */
  headers?: Record<string, string>;
}

/** An open socket on the live endpoint that records every frame it receives. */
export class LiveClient {
  readonly frames: unknown[] = [];
  closeCode: number | undefined;
  readonly closed: Promise<number>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      this.frames.push(isBinary ? data : JSON.parse(String(data)));
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code) => {
        this.closeCode = code;
        resolve(code);
      }),
    );
    ws.on('error', () => undefined);
  }

  /** Every frame but the presence counts (online_count, thread_readers), which come and go on their own. */
  get eventFrames(): unknown[] {
    return this.frames.filter((frame) => {
      const type = (frame as { type?: unknown }).type;
      return type !== LIVE_EVENT.onlineCount && type !== LIVE_EVENT.threadReaders;
    });
  }

  /** The events of a type received so far. */
  events<T extends LiveEvent['type']>(type: T): Array<Extract<LiveEvent, { type: T }>> {
    return this.frames.filter(
      (frame): frame is Extract<LiveEvent, { type: T }> => (frame as { type?: unknown }).type === type,
    );
  }

  /** Waits for a frame matching `match`, and returns it. */
  next<T = unknown>(what: string, match: (frame: unknown) => boolean, timeoutMs = 5000): Promise<T> {
    return waitFor(what, () => this.frames.find(match) as T | undefined, timeoutMs);
  }

  /** Sends a ping and waits for its pong: proves the socket still works (and that earlier frames were read). */
  async roundTrip(): Promise<void> {
    const before = this.events('pong').length;
    this.ws.send(JSON.stringify({ type: 'ping' }));
    await waitFor('a pong', () => this.events('pong').length > before, 5000);
  }

  close(): Promise<number> {
    if (this.ws.readyState !== WebSocket.CLOSED) this.ws.close();
    return this.closed;
  }
}

/** Opens a live socket; rejects with `Unexpected server response: <status>` (or a socket error) when refused. */
export function connect(
  t: Pick<TestApp, 'url' | 'origin'>,
  options: ConnectOptions = {},
): Promise<LiveClient> {
  const origin = options.origin === undefined ? t.origin : options.origin;
  const ws = new WebSocket(liveUrl(t, options.path), {
    headers: { ...(options.cookie ? { Cookie: options.cookie } : {}), ...options.headers },
    ...(origin === null ? {} : { origin }),
    autoPong: options.autoPong ?? true,
  });
  const client = new LiveClient(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('error', reject);
  });
}

/** The HTTP status a refused upgrade got, from the client's error. */
export async function refusal(attempt: Promise<LiveClient>): Promise<string> {
  try {
    const client = await attempt;
    await client.close();
  } catch (error) {
    const message = (error as Error).message;
    return /Unexpected server response: (\d+)/.exec(message)?.[1] ?? message;
  }
  throw new Error('the upgrade was accepted');
}

/** Gives frames that should NOT arrive a moment to show up. */
export function settle(ms = 100): Promise<void> {
  return sleep(ms);
}
