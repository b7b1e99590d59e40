import { chmod, rm } from 'node:fs/promises';
import path from 'node:path';
import { API, type CurrentUser, SERVICE_MESSAGES } from '@termpaste/contracts';
import supertest from 'supertest';
import { DataSource } from 'typeorm';
import { bootstrap, type RunningServer } from '../src/bootstrap.js';
import { DATABASE_RETRY_AFTER_SECONDS, recentRefusals } from '../src/common/database-unavailable.js';
import type { EmbeddedPostgresServer } from '../src/infra/database/embedded-postgres.js';
import { freePort } from '../src/infra/free-port.js';
import { newAccount } from './support/accounts.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { connect, refusal } from './support/live.js';
import { processesMentioning } from './support/processes.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { makeTempDir, startThrowawayPostgres } from './support/throwaway-postgres.js';
import { waitFor } from './support/wait-for.js';
import { SPAM_SIGNALS_OFF } from './support/spam-signals.js';

type Agent = ReturnType<typeof supertest.agent>;

/**
 * A throwaway cluster, but with synchronous commits: with `synchronous_commit=off` a crash of PostgreSQL
 * (not only of the machine) loses the last commits it acknowledged, and these tests count them.
 */
const CRASH_SAFE_POSTGRES = {
  detached: false,
  initdbFlags: ['--no-sync'],
  settings: { fsync: 'off', full_page_writes: 'off' },
};

/** Test environment on top of DATA_DIR: no rate limits, members may write at once. */
const ENV = { RATE_LIMITS: 'off', REQUIRE_VERIFIED_EMAIL: 'off', ...SPAM_SIGNALS_OFF };

interface Answer {
  sentAt: number;
  at: number;
  status: number;
  retryAfter: string | undefined;
  body: unknown;
}

function answer(
  res: { status: number; headers: Record<string, string>; body: unknown },
  sentAt = Date.now(),
): Answer {
  return {
    sentAt,
    at: Date.now(),
    status: res.status,
    retryAfter: res.headers['retry-after'],
    body: res.body,
  };
}

/** Every answer is a success or the database's 503 (with Retry-After and the message): never a 500. */
function expectOnlySuccessOr503(answers: Answer[]): void {
  const unexpected = answers.filter(
    (a) =>
      !(a.status >= 200 && a.status < 300) &&
      !(
        a.status === 503 &&
        a.retryAfter === String(DATABASE_RETRY_AFTER_SECONDS) &&
        JSON.stringify(a.body) ===
          JSON.stringify({ statusCode: 503, message: SERVICE_MESSAGES.databaseUnavailable })
      ),
  );
  expect(unexpected).toEqual([]);
}

async function signUp(url: string): Promise<{ browser: Agent; user: CurrentUser; cookie: string }> {
  const browser = supertest.agent(url).set('Origin', url);
  const res = await browser.post(API.register).send(newAccount()).expect(201);
  const cookies = (res.headers['set-cookie'] as unknown as string[]) ?? [];
  const cookie = cookies.find((c) => c.startsWith('termpaste.sid='))!.split(';')[0]!;
  return { browser, user: res.body as CurrentUser, cookie };
}

/** Termpaste as `npm start` runs it on its embedded PostgreSQL, whose supervisor retries after `delayMs`. */
async function startSupervised(
  dataDir: string,
  logs: CapturingLogger,
  exits: number[],
  delayMs: number,
): Promise<RunningServer> {
  return bootstrap({
    env: {
      ...ENV,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      FRONTENDS_DIR: path.join(dataDir, 'frontends'),
    },
    logger: logs,
    handleSignals: false,
    exit: (code) => exits.push(code),
    embeddedPostgres: CRASH_SAFE_POSTGRES,
    supervisor: { delaysMs: [delayMs] },
  });
}

describe('the embedded PostgreSQL killed (kill -9) under load', () => {
  let dataDir: string;
  let server: RunningServer;
  const logs = new CapturingLogger();
  const exits: number[] = [];

  beforeAll(async () => {
    dataDir = await makeTempDir('termpaste-outage-');
    server = await startSupervised(dataDir, logs, exits, 200);
  });

  afterAll(async () => {
    await server?.shutdown();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After meanwhile (never 500), is back within seconds, and loses no acknowledged write', async () => {
    const database = server.database!;
    const { browser, user } = await signUp(server.url);
    const answers: Answer[] = [];
    const acknowledged: Array<{ id: number; title: string }> = [];
    let running = true;
    let sequence = 0;

    const writer = async (): Promise<void> => {
      while (running) {
        const title = `paste ${sequence++}`;
        const sentAt = Date.now();
        const res = await browser.post(API.threads).send({ title, content: `content of ${title}` });
        answers.push(answer(res, sentAt));
        if (res.status === 201) acknowledged.push({ id: (res.body as { id: number }).id, title });
      }
    };
    // Reads with the session cookie: the session store is the first to meet the database.
    const reader = async (): Promise<void> => {
      while (running) {
        const sentAt = Date.now();
        answers.push(answer(await browser.get(API.currentUser), sentAt));
      }
    };
    const load = [writer(), writer(), writer(), writer(), reader()];

    const oldPid = database.pid!;
    let backAt = 0;
    try {
      await waitFor('writes acknowledged before the crash', () => acknowledged.length >= 20);
      const killedAt = Date.now();
      process.kill(oldPid, 'SIGKILL');

      const ready = supertest(server.url);
      await waitFor('the database back', async () => (await ready.get(API.ready)).status === 200, 15_000);
      backAt = Date.now();
      expect(backAt - killedAt).toBeLessThan(10_000);
      const acknowledgedBeforeBack = acknowledged.length;
      await waitFor(
        'writes acknowledged after the restart',
        () => acknowledged.length >= acknowledgedBeforeBack + 20,
      );
    } finally {
      running = false;
      await Promise.all(load);
    }

    expectOnlySuccessOr503(answers);
    // The crash was seen: requests in flight or made meanwhile got the 503.
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    // A failure shows when each late answer's request was sent, and why the server refused it.
    const late = answers.filter((a) => a.at > backAt + 500 && a.status !== 201 && a.status !== 200);
    const why = late.length ? { backAt, refusals: recentRefusals() } : {};
    expect({ late, why }).toEqual({ late: [], why: {} });

    expect(database.isRunning).toBe(true);
    expect(database.pid).not.toBe(oldPid);
    expect(logs.text()).toContain(
      'The database stopped unexpectedly (PostgreSQL killed by SIGKILL); restarting (try 1 of 3)',
    );
    expect(logs.text()).toMatch(/The database is back after \d+ ms/);
    expect(logs.text()).not.toMatch(/Internal error/);
    expect(exits).toEqual([]);

    // Every acknowledged paste is there, as written, and the member's counter agrees.
    const dataSource = server.app.get(DataSource);
    const rows: Array<{ id: number; title: string }> = await dataSource.query(
      'SELECT id, title FROM threads WHERE author_id = $1 ORDER BY id',
      [user.id],
    );
    const stored = new Map(rows.map((row) => [row.id, row.title]));
    expect(acknowledged.filter(({ id, title }) => stored.get(id) !== title)).toEqual([]);
    const me = await browser.get(API.currentUser).expect(200);
    expect((me.body as CurrentUser).threadCount).toBe(rows.length);
  });

  it('a crash soon after a restart continues the count of tries', async () => {
    const database: EmbeddedPostgresServer = server.database!;
    logs.entries.length = 0;
    process.kill(database.pid!, 'SIGKILL');
    await waitFor('the database back', () => logs.text().includes('The database is back after'), 15_000);
    expect(logs.text()).toMatch(
      /The database stopped unexpectedly again, \d+ ms after it came back \(PostgreSQL killed by SIGKILL\); restarting \(try 2 of 3\) in 200 ms/,
    );
    await supertest(server.url).get(API.ready).expect(200);
    expect(exits).toEqual([]);
  });
});

describe('the embedded PostgreSQL that cannot be restarted', () => {
  let dataDir: string;
  let server: RunningServer | undefined;
  const logs = new CapturingLogger();
  const exits: number[] = [];

  beforeAll(async () => {
    dataDir = await makeTempDir('termpaste-outage-fatal-');
    server = await startSupervised(dataDir, logs, exits, 100);
  });

  afterAll(async () => {
    await server?.shutdown();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('gives up after 3 tries with a clear message, closes the app and exits non-zero', async () => {
    const running = server!;
    const pgDir = running.database!.dir;
    // What a careless `chmod -R` does: PostgreSQL refuses a data directory others may read.
    await chmod(pgDir, 0o777);
    process.kill(running.database!.pid!, 'SIGKILL');

    await waitFor('the exit', () => exits.length > 0, 20_000);
    expect(exits).toEqual([1]);
    const text = logs.text();
    expect(text).toContain('restarting (try 1 of 3)');
    expect(text).toMatch(
      /The database did not start \(.*FATAL: +data directory .* has invalid permissions\); restarting \(try 2 of 3\) in 100 ms/,
    );
    expect(text).toContain('restarting (try 3 of 3) in 100 ms');
    expect(text).toMatch(
      /The database could not be restarted after 3 tries; Termpaste stops\. Last error: PostgreSQL in .* exited during start-up[\s\S]*has invalid permissions/,
    );
    expect(text).not.toContain('try 4');
    // The app closed (its port no longer answers) and no PostgreSQL is left behind.
    await expect(supertest(running.url).get(API.health)).rejects.toThrow(/ECONNREFUSED/);
    expect(await processesMentioning(dataDir)).toEqual([]);
    server = undefined;
  });
});

describe('an external PostgreSQL (DATABASE_URL) that goes away and comes back', () => {
  let tempDir: string;
  let pgDir: string;
  let port: number;
  let postgres: EmbeddedPostgresServer;
  let t: TestApp;

  const startPostgres = () => startThrowawayPostgres(pgDir, { port });

  beforeAll(async () => {
    tempDir = await makeTempDir('termpaste-outage-external-');
    pgDir = path.join(tempDir, 'pg');
    port = await freePort();
    postgres = await startPostgres();
    await postgres.createDatabaseIfMissing('termpaste');
    t = await createTestApp({
      env: ENV,
      database: { name: 'termpaste', url: postgres.url('termpaste'), drop: async () => undefined },
    });
  });

  afterAll(async () => {
    await t?.close();
    await postgres?.stop();
    await rm(tempDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while it is down (HTTP, session, WebSocket), and recovers when it is back', async () => {
    const member = await signUp(t.url);
    await member.browser.post(API.threads).send({ title: 'before', content: 'the outage' }).expect(201);
    const live = await connect(t, { cookie: member.cookie });
    await live.close();

    await postgres.stop();
    const answers: Answer[] = [];
    // A write, a member's read (the session store), a visitor's read, a fresh sign-up.
    answers.push(answer(await member.browser.post(API.threads).send({ title: 'during', content: 'x' })));
    answers.push(answer(await member.browser.get(API.currentUser)));
    answers.push(answer(await supertest(t.url).get(`${API.search}?q=outage${Date.now()}`)));
    answers.push(
      answer(await supertest.agent(t.url).set('Origin', t.url).post(API.register).send(newAccount())),
    );
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503]);
    expectOnlySuccessOr503(answers);
    expect(await refusal(connect(t, { cookie: member.cookie }))).toBe('503');
    // Liveness stays up (a restart would not help); readiness takes the instance out of rotation.
    await t.http.get(API.health).expect(200, { status: 'ok', db: 'down' });
    await t.http.get(API.ready).expect(503);
    expect(t.logs.text()).toMatch(/The database is unreachable \(.+\): 1 request\(s\) answered 503/);

    // No supervisor here: it is back when its operator starts it; the pool reconnects by itself.
    postgres = await startPostgres();
    await waitFor('the database back', async () => (await t.http.get(API.ready)).status === 200, 10_000);
    await member.browser.post(API.threads).send({ title: 'after', content: 'the outage' }).expect(201);
    await member.browser.get(API.currentUser).expect(200);
    const again = await connect(t, { cookie: member.cookie });
    await again.close();
    const titles: Array<{ title: string }> = await t.dataSource.query(
      'SELECT title FROM threads WHERE author_id = $1 ORDER BY id',
      [member.user.id],
    );
    expect(titles.map((row) => row.title)).toEqual(['before', 'after']);
    expect(t.logs.text()).not.toMatch(/Internal error/);
  });
});
