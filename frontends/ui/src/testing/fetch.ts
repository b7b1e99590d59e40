import { afterEach } from '@jest/globals';

/** One request the code under test made; `body` is the parsed JSON body (undefined without one). */
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

/** How a stub answers one call. */
export type FetchHandler = (call: FetchCall) => FetchAnswer | Promise<FetchAnswer>;

const realFetch = globalThis.fetch;

// The importing spec file gets the real fetch back after each test.
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** The member's mutes and blocks, which every screen showing posts reads for a signed-in member. */
const PEOPLE_LISTS = new Set(['/api/user/mutes', '/api/user/blocks']);

/**
 * Replaces fetch until the test ends: records each call and answers with the handler's status and body.
 * The member's mutes and blocks lists (read by every screen that shows posts) answer empty and are
 * left out of the calls, unless `peopleLists: 'ask'` hands them to the handler like any call.
 */
export function stubFetch(
  handler: FetchHandler,
  { peopleLists = 'empty' }: { peopleLists?: 'empty' | 'ask' } = {},
): FetchCall[] {
  const calls: FetchCall[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: FetchCall = {
      method: init?.method ?? 'GET',
      url: String(input),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    const unasked = peopleLists === 'empty' && call.method === 'GET' && PEOPLE_LISTS.has(call.url);
    if (!unasked) calls.push(call);
    const { status = 200, body = {} } = unasked ? { body: { members: [] } } : await handler(call);
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

/**
 * stubFetch for an API: a GET answers what `read(url)` returns, or 404 'not stubbed' when that is
 * undefined; every other method goes to `onWrite` (200 `{}` by default). The member's mutes and blocks
 * lists are as stubFetch has them (`peopleLists`).
 */
export function stubApi(
  read: (url: string) => unknown,
  onWrite: FetchHandler = () => ({}),
  options: { peopleLists?: 'empty' | 'ask' } = {},
): FetchCall[] {
  return stubFetch((call) => {
    if (call.method !== 'GET') return onWrite(call);
    const body = read(call.url);
    return body === undefined ? { status: 404, body: 'not stubbed' } : { body };
  }, options);
}

/** A handler for stubFetch that never answers: whatever the screen asks for stays loading. */
export const pending = () => new Promise<FetchAnswer>(() => undefined);

/** A promise the test settles: a request that stays pending until `resolve` is called. */
export function deferred<T = FetchAnswer>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** The URLs of the calls, in order. */
export const urls = (calls: FetchCall[]) => calls.map((call) => call.url);

/** The calls that write (everything but GET). */
export const writes = (calls: FetchCall[]) => calls.filter((call) => call.method !== 'GET');

/** The GETs of one URL. */
export const reads = (calls: FetchCall[], url: string) =>
  calls.filter((call) => call.method === 'GET' && call.url === url);

/** A NestJS-style error body. */
export const errorBody = (statusCode: number, message: string) => ({ statusCode, message });
