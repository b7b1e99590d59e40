import { setTimeout as sleep } from 'node:timers/promises';
import { Controller, Get, Logger, Module } from '@nestjs/common';
import { API, PAGES } from '@termpaste/contracts';
import { PrettyLogger } from '../src/logging/pretty-logs.js';
import { REDACTED } from '../src/common/redact.js';
import { PasswordResetService } from '../src/modules/auth/password-reset.service.js';
import { PASSWORD, registered, sessionCookie } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

interface LogLine {
  level: string;
  time: string;
  msg?: string;
  reqId?: string;
  context?: string;
  req?: { method: string; url: string; headers: Record<string, unknown> };
  res?: { statusCode: number; headers: Record<string, unknown> };
  [field: string]: unknown;
}

const PROBE_SECRET = 'probe-secret-value';

/** A route that logs while it handles a request, after an await (the request id must follow). */
@Controller('api/test')
class LoggingProbeController {
  private readonly logger = new Logger('LoggingProbe');

  @Get('log')
  async log(): Promise<{ ok: true }> {
    await sleep(5);
    this.logger.log('handling the probe');
    this.logger.warn({ msg: 'a careless log call', password: PROBE_SECRET, body: { token: PROBE_SECRET } });
    return { ok: true };
  }

  @Get('fail')
  async fail(): Promise<never> {
    await sleep(1);
    throw new Error('the probe broke');
  }
}

@Module({ controllers: [LoggingProbeController] })
class LoggingProbeModule {}

/**
 * LOG_FORMAT=json (pino, with pino-http for requests): one JSON object a line, a request id on the request's line
 * and on every line the app writes while handling it, and no password, token or cookie anywhere.
 */
describe('JSON logs', () => {
  let t: TestApp;
  const output: string[] = [];

  const text = () => output.join('');
  const lines = (): LogLine[] =>
    text()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogLine);
  /** The line pino-http writes once the request with this id is answered. */
  const requestLine = (reqId: string) =>
    waitFor(`the request line of ${reqId}`, () =>
      lines().find((line) => line.reqId === reqId && line.res !== undefined),
    );

  beforeAll(async () => {
    t = await createTestApp({
      imports: [LoggingProbeModule],
      logDestination: { write: (chunk: string) => void output.push(chunk) },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('writes every line as JSON, start-up lines included', () => {
    expect(lines().length).toBeGreaterThan(0);
    expect(text().endsWith('\n')).toBe(true);
    const started = lines().find((line) => line.msg === 'Nest application successfully started');
    expect(started).toMatchObject({ level: 'info', context: 'NestApplication' });
    expect(started?.reqId).toBeUndefined();
    expect(started?.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('logs each request once answered, under the id it echoes in X-Request-Id', async () => {
    const res = await t.http.get(API.threadsRecent).expect(200);
    const reqId = res.headers['x-request-id'] as string;
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await requestLine(reqId)).toMatchObject({
      level: 'info',
      msg: 'request completed',
      req: { method: 'GET', url: API.threadsRecent },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });

  it('keeps a sane X-Request-Id from the proxy, and replaces one that is not', async () => {
    const kept = await t.http.get(API.site).set('X-Request-Id', 'edge-7f3a.42').expect(200);
    expect(kept.headers['x-request-id']).toBe('edge-7f3a.42');
    await requestLine('edge-7f3a.42');

    for (const bad of ['x'.repeat(65), 'two words', '"}\n{"level":"fatal"}']) {
      const res = await t.http.get(API.site).set('X-Request-Id', bad.replace('\n', ' ')).expect(200);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      await requestLine(res.headers['x-request-id'] as string);
    }
    // The header as sent stays a string inside its line: nothing forges a line of its own.
    expect(lines().filter((line) => line.level === 'fatal')).toEqual([]);
  });

  it('puts the request id on the lines the app writes while handling it', async () => {
    const res = await t.http.get('/api/test/log').set('X-Request-Id', 'probe-1').expect(200);
    expect(res.headers['x-request-id']).toBe('probe-1');
    await requestLine('probe-1');
    const appLines = lines().filter((line) => line.reqId === 'probe-1' && line.res === undefined);
    expect(appLines).toEqual([
      expect.objectContaining({ level: 'info', context: 'LoggingProbe', msg: 'handling the probe' }),
      expect.objectContaining({
        level: 'warn',
        msg: 'a careless log call',
        password: REDACTED,
        body: { token: REDACTED },
      }),
    ]);
    expect(text()).not.toContain(PROBE_SECRET);
  });

  it('logs errors the app answers with their request id', async () => {
    const res = await t.http.get('/static/js/missing.0123abcd.js').expect(404);
    const line = await requestLine(res.headers['x-request-id'] as string);
    expect(line).toMatchObject({ level: 'info', res: { statusCode: 404 } });
  });

  it('logs an unexpected error with its stack and request id, and the request at level error', async () => {
    await t.http.get(`/api/test/fail?token=${PROBE_SECRET}`).set('X-Request-Id', 'probe-2').expect(500);
    expect(await requestLine('probe-2')).toMatchObject({ level: 'error', res: { statusCode: 500 } });
    const error = lines().find((line) => line.reqId === 'probe-2' && line.context === 'ErrorFilter');
    expect(error).toMatchObject({
      level: 'error',
      msg: expect.stringMatching(
        /^Internal error \(id [0-9a-f]{8}\) on GET \/api\/test\/fail\?token=\[Redacted\]$/,
      ),
      err: { stack: expect.stringContaining('the probe broke') },
    });
    expect(text()).not.toContain(PROBE_SECRET);
  });

  it('never writes passwords, tokens or cookies', async () => {
    const newPassword = 'an entirely new passphrase';
    const changedPassword = 'yet another passphrase 42';
    const { account } = await registered(t);

    // Sign-in, reset and change: the request bodies hold passwords and a token.
    const login = await t
      .browser()
      .post(API.login)
      .send({ usernameOrEmail: account.username, password: PASSWORD })
      .expect(200);
    const cookie = sessionCookie(login)!.split(';')[0]!;
    const cookieValue = cookie.split('=')[1]!;

    await t.browser().post(API.forgotPassword).send({ email: account.email }).expect(200);
    await t.app.get(PasswordResetService).whenIdle();
    const token = /token=([A-Za-z0-9_-]+)/.exec(t.mail.to(account.email).at(-1)!.text)![1]!;
    // The link itself: the shell's page, its URL with the token (no frontends here: 503, logged all the same).
    const page = await t.http.get(`${PAGES.resetPassword}?token=${token}&from=mail`);
    const pageLine = await requestLine(page.headers['x-request-id'] as string);
    expect(pageLine.req?.url).toBe(`${PAGES.resetPassword}?token=${REDACTED}&from=mail`);
    await t.browser().post(API.resetPassword).send({ token, newPassword }).expect(200);

    const signedIn = t.browser();
    await signedIn
      .post(API.login)
      .send({ usernameOrEmail: account.email, password: newPassword })
      .expect(200);
    await signedIn
      .post(API.changePassword)
      .send({ currentPassword: newPassword, newPassword: changedPassword })
      .expect(200);
    // A bearer credential (refused: it is no access token), logged without its value.
    const change = await t.http
      .get(API.currentUser)
      .set('Authorization', 'Bearer not-a-real-credential')
      .expect(401);
    // A request with the session cookie (sent by the agent) and one with a signed upload address.
    const me = await signedIn.get(API.currentUser).expect(200);
    const upload = await t.http
      .put(`${API.uploads}/avatars/1/x.png?expires=1&max=10&sig=${'ab'.repeat(32)}`)
      .send(Buffer.from('x'));
    // A sign-in provider's answer: its authorization code and the state.
    const callback = await t.http.get(
      `${API.ssoCallback('nope')}?code=${'cd'.repeat(20)}&state=${'ef'.repeat(20)}`,
    );

    for (const res of [change, me, upload, callback])
      await requestLine(res.headers['x-request-id'] as string);
    const meLine = await requestLine(me.headers['x-request-id'] as string);
    expect(meLine.req?.headers.cookie).toBe(REDACTED);
    const changeLine = await requestLine(change.headers['x-request-id'] as string);
    expect(changeLine.req?.headers.authorization).toBe(REDACTED);
    const loginLine = await requestLine(login.headers['x-request-id'] as string);
    expect(loginLine.res?.headers['set-cookie']).toBe(REDACTED);
    const uploadLine = await requestLine(upload.headers['x-request-id'] as string);
    expect(uploadLine.req?.url).toContain(`sig=${REDACTED}`);
    const callbackLine = await requestLine(callback.headers['x-request-id'] as string);
    expect(callbackLine.req?.url).toBe(`${API.ssoCallback('nope')}?code=${REDACTED}&state=${REDACTED}`);

    const all = text();
    for (const secret of [
      PASSWORD,
      newPassword,
      changedPassword,
      token,
      cookieValue,
      decodeURIComponent(cookieValue),
      'not-a-real-credential',
      'ab'.repeat(32),
    ]) {
      expect(all).not.toContain(secret);
    }
  });

  it('escapes control characters in every message and field: a forged line or an ANSI escape stays in its line', async () => {
    const res = await t.http.get(FORGING_CALLBACK).expect(302);
    const reqId = res.headers['x-request-id'] as string;
    await requestLine(reqId);
    // Every line is still one JSON object (lines() parses each); the provider's name is in one of them.
    const refused = await waitFor('the refusal line', () =>
      lines().find((line) => line.reqId === reqId && line.msg?.startsWith('Sign-in with')),
    );
    expect(refused.msg).toContain(FORGED_ESCAPED);
    expect((await requestLine(reqId)).req?.url).toBe(FORGING_CALLBACK);
    for (const raw of ['\x1b', '\x9b', '\u2028']) expect(text()).not.toContain(raw);
  });
});

/** An SSO callback whose provider name holds a newline, a forged pretty line, ANSI and C1 escapes. */
const FORGING_CALLBACK = `/api/auth/sso/dev${encodeURIComponent(
  '\n[Nest] 1  - 01/01/2030, 00:00:00     LOG [Admin] forged\x1b[2J\u009b31m\u2028',
)}/callback`;
/** How that name shows in a line: its control characters escaped. */
const FORGED_ESCAPED = 'dev\\n[Nest] 1  - 01/01/2030, 00:00:00     LOG [Admin] forged\\x1b[2J\\x9b31m\\u2028';

describe('pretty logs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ logger: new PrettyLogger() });
  });

  afterAll(async () => {
    await t?.close();
  });

  /** What the app writes to stdout and stderr while `run` runs. */
  async function written(run: () => Promise<unknown>): Promise<string> {
    const chunks: string[] = [];
    const out = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    const keep = (chunk: unknown) => {
      chunks.push(String(chunk));
      return true;
    };
    process.stdout.write = keep as typeof process.stdout.write;
    process.stderr.write = keep as typeof process.stderr.write;
    try {
      await run();
      await sleep(50);
    } finally {
      process.stdout.write = out;
      process.stderr.write = err;
    }
    return chunks.join('');
  }

  // Colours are the logger's own escapes: taken off to read the lines.
  const plain = (text: string) => text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');

  it('keeps a provider name with a newline and ANSI escapes in its own line', async () => {
    const output = await written(() => t.http.get(FORGING_CALLBACK).expect(302));
    expect(output).toContain('Sign-in with');
    const lines = plain(output)
      .split('\n')
      .filter((line) => line !== '');
    const forged = lines.filter((line) => line.includes('forged'));
    expect(forged).toHaveLength(1);
    expect(forged[0]).toMatch(/^\[Nest\] \d+ .*Sign-in with dev\\n\[Nest\] 1 {2}- /);
    expect(forged[0]).toContain(FORGED_ESCAPED);
    for (const raw of ['\x1b[2J', '\x9b', '\u2028']) expect(output).not.toContain(raw);
  });

  it('escapes a context and keeps a stack trace one frame a line, its message on the first', async () => {
    const error = new Error('broke\n[Nest] 1  - forged');
    const output = plain(
      await written(async () => new Logger('Probe\nctx').error('failed\r\nforged', error.stack)),
    );
    expect(output).toContain('[Probe\\nctx] failed\\r\\nforged');
    expect(output).toContain('Error: broke\\n[Nest] 1  - forged\n    at ');
    expect(output.split('\n').filter((line) => line.includes('forged'))).toHaveLength(2);
  });
});
