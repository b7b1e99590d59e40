import http from 'node:http';
import {
  API,
  type CreatedAccessToken,
  POST_MESSAGES,
  TOKEN_MESSAGES,
  VERIFY_MESSAGES,
} from '@termpaste/contracts';
import { CROSS_SITE_REFUSED } from '../src/common/origins.js';
import { newAccount, sessionCookie } from './support/accounts.js';
import { liveUser, type LiveUser } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** Within a paste route's JSON limit (twice PASTE_MAX_BYTES and a little): the old routes waited for it. */
const DECLARED = 2 * 1_048_576;

interface EarlyAnswer {
  status: number;
  body: { statusCode?: number; message?: string };
  /** Whether the client had finished sending when the answer came (it never does here). */
  sentWhole: boolean;
}

/**
 * Sends the headers of a 2 MiB JSON body and its first bytes only, holding the rest back: resolves with
 * the answer if one comes within `waitMs`, else null. The request is cut off either way.
 */
function halfSent(
  t: TestApp,
  method: string,
  path: string,
  headers: Record<string, string>,
  waitMs = 5000,
): Promise<EarlyAnswer | null> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, t.url), {
      method,
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(DECLARED), ...headers },
    });
    let sentWhole = false;
    const timer = setTimeout(() => {
      req.destroy();
      resolve(null);
    }, waitMs);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as EarlyAnswer['body'], sentWhole });
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.write('{"title":"t","content":"');
    req.on('finish', () => (sentWhole = true));
  });
}

describe('the paste routes decide who writes before reading the body', () => {
  let t: TestApp;
  let alice: LiveUser;
  let alicePaste: number;
  let unverifiedCookie: string;
  let readToken: CreatedAccessToken;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMITS: 'on',
        RATE_LIMIT_REGISTER_PER_HOUR: '100',
        RATE_LIMIT_PASTES_PER_MINUTE: '2',
        RATE_LIMIT_EDITS_PER_HOUR: '1',
      },
    });
    alice = await liveUser(t);
    alicePaste = (await alice.browser.post(API.threads).send({ title: 'mine', content: 'x' }).expect(201))
      .body.id as number;
    const res = await t.browser().post(API.register).send(newAccount()).expect(201);
    unverifiedCookie = sessionCookie(res)!.split(';')[0]!;
    readToken = (
      await alice.browser
        .post(API.userTokens)
        .send({ name: 'reader', scopes: ['read'] })
        .expect(201)
    ).body as CreatedAccessToken;
  });

  afterAll(async () => {
    await t?.close();
  });

  const routes = (): Array<[string, string]> => [
    ['POST', API.threads],
    ['POST', API.pastes],
    ['PATCH', API.thread(alicePaste)],
  ];

  const expectEarly = (answer: EarlyAnswer | null, status: number, message: string): void => {
    expect(answer).not.toBeNull();
    expect(answer!.sentWhole).toBe(false);
    expect(answer!.status).toBe(status);
    expect(answer!.body).toEqual({ statusCode: status, message });
  };

  it('401 without a session or token, as soon as the headers are in', async () => {
    for (const [method, path] of routes()) {
      expectEarly(await halfSent(t, method, path, { Origin: t.origin }), 401, 'Unauthorized');
    }
  });

  it('401 for a token that is no token of ours', async () => {
    for (const [method, path] of routes()) {
      const answer = await halfSent(t, method, path, { Authorization: `Bearer tp_${'x'.repeat(40)}` });
      expect(answer?.status).toBe(401);
      expect(answer?.sentWhole).toBe(false);
    }
  });

  it('403 for a session from another site', async () => {
    for (const [method, path] of routes()) {
      const answer = await halfSent(t, method, path, {
        Cookie: alice.cookie,
        Origin: 'https://evil.example',
      });
      expectEarly(answer, 403, CROSS_SITE_REFUSED);
    }
  });

  it('403 for a member whose address is not verified', async () => {
    for (const [method, path] of routes()) {
      const answer = await halfSent(t, method, path, { Cookie: unverifiedCookie, Origin: t.origin });
      expectEarly(answer, 403, VERIFY_MESSAGES.unverified);
    }
  });

  it('403 for a token without pastes:write', async () => {
    for (const [method, path] of routes()) {
      const answer = await halfSent(t, method, path, { Authorization: `Bearer ${readToken.token}` });
      expectEarly(answer, 403, TOKEN_MESSAGES.missingScope('pastes:write'));
    }
  });

  it('a member who may write is waited for; past the limits, 429 before the body', async () => {
    // Within the limits the route waits for the body it was promised.
    expect(
      await halfSent(t, 'POST', API.threads, { Cookie: alice.cookie, Origin: t.origin }, 500),
    ).toBeNull();
    // Both pastes of the minute (the first, then the one waited for) and the one edit of the hour are spent.
    await alice.browser.patch(API.thread(alicePaste)).send({ content: 'y' }).expect(200);
    for (const [method, path] of routes()) {
      const answer = await halfSent(t, method, path, { Cookie: alice.cookie, Origin: t.origin });
      expect(answer?.status).toBe(429);
      expect(answer?.sentWhole).toBe(false);
      expect(answer?.body.message).toMatch(
        method === 'PATCH' ? /^You are editing too fast\./ : /^You are posting too fast\./,
      );
    }
    expect(POST_MESSAGES.editTooFast(2)).toBe('You are editing too fast. Try again in 2 seconds.');
  });
});
