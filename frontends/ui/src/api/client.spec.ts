/**
 * @jest-environment node
 */
// The real fetch of Node against a real local HTTP server: what the server receives is what a browser sends.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryClient } from '@tanstack/react-query';
import { API, QUERY_DEFAULTS } from '@termpaste/contracts';
import { apiRequest, createQueryClient, errorMessage, getQueryFn, isUnauthorizedError } from './client.js';
import { currentUserQuery } from './current-user.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Reply = { status: number; statusText?: string; body?: string; type?: string };

let server: Server;
let base: string;
let received: Received[] = [];
let reply: Reply = { status: 200, body: '{}' };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(reply.status, reply.statusText ?? '', {
        'Content-Type': reply.type ?? 'application/json',
      });
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
});

beforeEach(() => {
  received = [];
  reply = { status: 200, body: '{}' };
});

afterEach(() => {
  jest.restoreAllMocks();
});

/** Runs a query function the way react-query does. */
function runQuery<T>(fn: ReturnType<typeof getQueryFn<T>>, queryKey: readonly unknown[]) {
  const client = new QueryClient();
  return client.fetchQuery({ queryKey, queryFn: fn });
}

describe('apiRequest', () => {
  it('sends a JSON body with a JSON content type when data is given', async () => {
    reply = { status: 201, body: '{"id":7}' };
    const res = await apiRequest('POST', `${base}${API.threads}`, { title: 'hello', content: 'world' });

    expect(res.status).toBe(201);
    await expect(res.json()).resolves.toEqual({ id: 7 });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: 'POST',
      url: API.threads,
      body: '{"title":"hello","content":"world"}',
    });
    expect(received[0]!.headers['content-type']).toBe('application/json');
  });

  it('sends neither a body nor a content type without data', async () => {
    await apiRequest('POST', `${base}${API.notificationsMarkAllRead}`);

    expect(received[0]).toMatchObject({ method: 'POST', url: API.notificationsMarkAllRead, body: '' });
    expect(received[0]!.headers['content-type']).toBeUndefined();
  });

  it('sends null as a JSON body (only undefined means no payload)', async () => {
    await apiRequest('PUT', `${base}/api/x`, null);

    expect(received[0]!.body).toBe('null');
    expect(received[0]!.headers['content-type']).toBe('application/json');
  });

  it('includes credentials (cookies) on every call', async () => {
    // Node's fetch keeps no cookie jar, so the server cannot tell; watch the real fetch's options instead.
    const spy = jest.spyOn(globalThis, 'fetch');
    await apiRequest('GET', `${base}/api/a`);
    await apiRequest('POST', `${base}/api/b`, { a: 1 });

    expect(spy).toHaveBeenCalledTimes(2);
    for (const [, init] of spy.mock.calls) expect(init).toMatchObject({ credentials: 'include' });
    expect(received.map((r) => r.url)).toEqual(['/api/a', '/api/b']);
  });

  it('throws "<status>: <body>" on a non-OK response', async () => {
    reply = { status: 400, body: '{"statusCode":400,"message":"Title is required"}' };
    await expect(apiRequest('POST', `${base}/api/threads`, {})).rejects.toThrow(
      new Error('400: {"statusCode":400,"message":"Title is required"}'),
    );
  });

  it('uses the status text when the body is empty', async () => {
    reply = { status: 503, statusText: 'Down For Maintenance', body: '' };
    await expect(apiRequest('GET', `${base}/api/threads/recent`)).rejects.toThrow(
      new Error('503: Down For Maintenance'),
    );
  });

  it('marks a 401 with an Unauthorized body as an auth failure', async () => {
    reply = { status: 401, body: 'Unauthorized', type: 'text/plain' };
    const error = await apiRequest('POST', `${base}/api/votes`, { threadId: 1, value: 1 }).catch(
      (e: unknown) => e,
    );

    expect(error).toEqual(new Error('401: Unauthorized'));
    expect(isUnauthorizedError(error)).toBe(true);
  });
});

describe('isUnauthorizedError', () => {
  it.each([
    ['401: Unauthorized', true],
    ['401: {"statusCode":401,"message":"Unauthorized"}', true],
    ['401: Forbidden', false],
    ['403: Unauthorized', false],
    ['Unauthorized', false],
  ])('%s → %s', (message, expected) => {
    expect(isUnauthorizedError(new Error(message))).toBe(expected);
  });

  it('is false for something that is not an Error', () => {
    expect(isUnauthorizedError('401: Unauthorized')).toBe(false);
    expect(isUnauthorizedError(null)).toBe(false);
  });
});

describe('errorMessage', () => {
  it('reads the message field of a JSON error body', () => {
    expect(errorMessage(new Error('400: {"statusCode":400,"message":"Username taken"}'), 'x')).toBe(
      'Username taken',
    );
    expect(errorMessage(new Error('400: {"message":["a too short","b missing"]}'), 'x')).toBe(
      'a too short; b missing',
    );
  });

  it('uses a plain body text as the message', () => {
    expect(errorMessage(new Error('401: Unauthorized'), 'x')).toBe('Unauthorized');
  });

  it('falls back for other errors', () => {
    expect(errorMessage(new TypeError('fetch failed'), 'Failed to send message')).toBe(
      'Failed to send message',
    );
    expect(errorMessage('oops', 'Failed')).toBe('Failed');
    expect(errorMessage(new Error('400: {"statusCode":400}'), 'Failed')).toBe('Failed');
    expect(errorMessage(new Error('500: '), 'Failed')).toBe('Failed');
  });
});

describe('getQueryFn', () => {
  it('GETs the key segments joined with "/" and parses JSON', async () => {
    reply = { status: 200, body: '{"id":42,"title":"t"}' };
    const spy = jest.spyOn(globalThis, 'fetch');

    const data = await runQuery(getQueryFn({ on401: 'throw' }), [base, 'api', 'threads', 42]);

    expect(data).toEqual({ id: 42, title: 't' });
    expect(received[0]).toMatchObject({ method: 'GET', url: '/api/threads/42', body: '' });
    expect(received[0]!.headers['content-type']).toBeUndefined();
    // Revalidated each time: the browser never serves the page's stale-while-revalidate copy.
    expect(spy.mock.calls[0]![1]).toMatchObject({ credentials: 'include', cache: 'no-cache' });
  });

  it('throws on 401 by default', async () => {
    reply = { status: 401, body: 'Unauthorized', type: 'text/plain' };
    const error = await runQuery(getQueryFn({ on401: 'throw' }), [`${base}${API.notifications}`]).catch(
      (e: unknown) => e,
    );
    expect(isUnauthorizedError(error)).toBe(true);
  });

  it('returns null on 401 when asked', async () => {
    reply = { status: 401, body: 'Unauthorized', type: 'text/plain' };
    await expect(
      runQuery(getQueryFn({ on401: 'returnNull' }), [`${base}${API.currentUser}`]),
    ).resolves.toBeNull();
  });

  it('still throws other errors with returnNull', async () => {
    reply = { status: 500, statusText: 'Internal Server Error', body: '' };
    await expect(
      runQuery(getQueryFn({ on401: 'returnNull' }), [`${base}${API.currentUser}`]),
    ).rejects.toThrow('500: Internal Server Error');
  });
});

describe('createQueryClient', () => {
  it('applies the data-fetching defaults', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject(QUERY_DEFAULTS);
    expect(queries).toMatchObject({
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      retry: false,
    });
    expect(typeof queries?.queryFn).toBe('function');
    expect(mutations).toMatchObject({ retry: false });
  });

  it('fetches by query key with the default query function, without retrying', async () => {
    reply = { status: 500, statusText: 'Internal Server Error', body: '' };
    const client = createQueryClient();

    await expect(client.fetchQuery({ queryKey: [base, 'api', 'threads', 'recent'] })).rejects.toThrow(
      '500: ',
    );
    expect(received).toHaveLength(1);

    reply = { status: 200, body: '[{"id":1}]' };
    await expect(client.fetchQuery({ queryKey: [`${base}/api/threads/featured`] })).resolves.toEqual([
      { id: 1 },
    ]);
  });
});

describe('currentUserQuery', () => {
  it('asks for the current user, is not retried and treats 401 as signed out', async () => {
    expect(currentUserQuery.queryKey).toEqual([API.currentUser]);
    expect(currentUserQuery.retry).toBe(false);

    reply = { status: 401, body: 'Unauthorized', type: 'text/plain' };
    // The key is a same-origin path; run its query function against the test server's origin.
    const queryFn = currentUserQuery.queryFn as ReturnType<typeof getQueryFn>;
    await expect(runQuery(queryFn, [`${base}${API.currentUser}`])).resolves.toBeNull();
    expect(received[0]).toMatchObject({ method: 'GET', url: API.currentUser });

    // A visitor is told by a 204 (asked for with the header): no failed request in their console.
    reply = { status: 204, body: '' };
    await expect(runQuery(queryFn, [`${base}${API.currentUser}`])).resolves.toBeNull();
  });
});
