import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';
import { QUERY_DEFAULTS } from '@termpaste/contracts';
import { redirectToLogin } from './unauthorized.js';

/** What a query does when the server answers 401: throw by default, or return nothing. */
export type UnauthorizedBehavior = 'throw' | 'returnNull';

/** A non-OK response becomes `Error('<status>: <body text or status text>')`. */
async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new Error(`${res.status}: ${text}`);
}

/**
 * Calls the API with the session cookie. A JSON body (and its content type) is sent only when `data`
 * is given. Throws on a non-OK response; returns the Response for the caller to read.
 */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const hasBody = data !== undefined;
  const res = await fetch(url, {
    method,
    credentials: 'include',
    ...(hasBody ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(data) } : {}),
  });
  await throwIfResNotOk(res);
  return res;
}

/** A contracts (zod) schema: what getJson and sendJson check a response body against. */
export interface Schema<T> {
  parse(value: unknown): T;
}

/** Calls the API like apiRequest and checks the JSON body against its contracts schema. */
export async function sendJson<T>(
  method: string,
  url: string,
  schema: Schema<T>,
  data?: unknown,
): Promise<T> {
  const response = await apiRequest(method, url, data);
  return schema.parse(await response.json());
}

/** GETs `url` and checks the JSON body against its contracts schema. */
export const getJson = <T>(url: string, schema: Schema<T>): Promise<T> => sendJson('GET', url, schema);

/**
 * The default query function: the query key's segments joined with '/' are the URL, fetched with GET
 * and parsed as JSON. On 401 it throws, or resolves to null with `on401: 'returnNull'`.
 */
export function getQueryFn<T>(options: { on401: 'returnNull' }): QueryFunction<T | null>;
export function getQueryFn<T>(options: { on401: 'throw' }): QueryFunction<T>;
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null>;
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    // Always asked again (a 304 while unchanged): the page's stale-while-revalidate is for the caches in
    // front, never for the browser's, which would show a live refresh's read from before the change.
    const res = await fetch(queryKey.map(String).join('/'), {
      credentials: 'include',
      cache: 'no-cache',
      signal,
    });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** An error whose message begins '401: ' and contains 'Unauthorized' is an auth failure. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

/**
 * The server's message inside an API error, for the toasts: a JSON body's `message`, else a plain-text
 * body; `fallback` for anything else (no message, a network failure).
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof Error)) return fallback;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return fallback;
  const body = match[1]!.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Not JSON: the body text itself is the message.
    return body || fallback;
  }
  const message =
    parsed && typeof parsed === 'object' ? (parsed as { message?: unknown }).message : undefined;
  if (typeof message === 'string' && message) return message;
  if (Array.isArray(message) && message.length) return message.join('; ');
  return fallback;
}

/** The one QueryClient of an app (the shell owns it), with the data-fetching defaults. */
export function createQueryClient(): QueryClient {
  // A call that finds the session gone (401 ... Unauthorized) sends the member to sign in again.
  const onError = (error: unknown) => {
    if (isUnauthorizedError(error)) redirectToLogin();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: QUERY_DEFAULTS.refetchInterval,
        refetchOnWindowFocus: QUERY_DEFAULTS.refetchOnWindowFocus,
        staleTime: QUERY_DEFAULTS.staleTime,
        retry: QUERY_DEFAULTS.retry,
      },
      mutations: { retry: false },
    },
  });
}
