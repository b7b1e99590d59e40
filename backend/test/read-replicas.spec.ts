import { API, type CreatedAccessToken } from '@termpaste/contracts';
import { Client, type Pool } from 'pg';
import supertest from 'supertest';
import { ConfigError, loadConfig } from '../src/config/config.js';
import {
  isReplicaFailure,
  lastRecordEnd,
  parseLsn,
  ReadDatabase,
} from '../src/infra/database/read-database.js';
import { freePort } from '../src/infra/free-port.js';
import { EventsPort } from '../src/infra/events/events.port.js';
import { Metrics } from '../src/infra/metrics/metrics.js';
import { clientKey } from '../src/http/fresh-reads.js';
import { registered } from './support/accounts.js';
import { createTestDatabase, type TestDatabase } from './support/postgres.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const PRIMARY = 'postgres://termpaste@db.example:5432/termpaste';

function configError(env: Record<string, string>): string {
  try {
    loadConfig({ SESSION_SECRET: 'x'.repeat(40), ...env }, '/tmp');
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('no ConfigError');
}

describe('read replicas: configuration', () => {
  it('takes one URL or several, comma-separated, with the lag bound and check interval', () => {
    const config = loadConfig(
      {
        DATABASE_URL: PRIMARY,
        SESSION_SECRET: 'x'.repeat(40),
        DATABASE_READ_URL: ' postgres://r1:5432/termpaste , postgresql://r2/termpaste,',
        DATABASE_READ_MAX_LAG_MS: '500',
        DATABASE_READ_CHECK_MS: '250',
      },
      '/tmp',
    );
    expect(config.readReplicas).toEqual({
      urls: ['postgres://r1:5432/termpaste', 'postgresql://r2/termpaste'],
      maxLagMs: 500,
      checkMs: 250,
    });
    const none = loadConfig({ DATABASE_URL: PRIMARY, SESSION_SECRET: 'x'.repeat(40) }, '/tmp');
    expect(none.readReplicas).toEqual({ urls: [], maxLagMs: 2000, checkMs: 1000 });
  });

  it('refuses a bad list (never echoing it: it holds a password), a bad bound, replicas without DATABASE_URL', () => {
    expect(configError({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: ',' })).toBe(
      'Invalid configuration: DATABASE_READ_URL must list one or more postgres:// URLs, comma-separated',
    );
    expect(configError({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: 'postgres://r1/db,r2' })).toBe(
      'Invalid configuration: DATABASE_READ_URL must list postgres:// URLs, comma-separated (entry 2 is not a URL)',
    );
    expect(configError({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: 'mysql://r1/db' })).toBe(
      'Invalid configuration: DATABASE_READ_URL must list postgres:// URLs, comma-separated (entry 1 is mysql://)',
    );
    expect(configError({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: 'postgres://r/db,postgres://r/db' })).toBe(
      'Invalid configuration: DATABASE_READ_URL must not list the same URL twice',
    );
    expect(configError({ DATABASE_URL: PRIMARY, DATABASE_READ_MAX_LAG_MS: '50' })).toBe(
      'Invalid configuration: DATABASE_READ_MAX_LAG_MS must be a whole number of milliseconds from 100 to 3600000 (got "50")',
    );
    expect(configError({ DATABASE_URL: PRIMARY, DATABASE_READ_CHECK_MS: 'often' })).toBe(
      'Invalid configuration: DATABASE_READ_CHECK_MS must be a whole number of milliseconds from 100 to 60000 (got "often")',
    );
    expect(configError({ DATABASE_READ_URL: 'postgres://r1/db' })).toBe(
      'Invalid configuration: DATABASE_READ_URL needs DATABASE_URL (the primary the replicas follow); ' +
        'the embedded PostgreSQL has no replicas',
    );
  });

  it('reads WAL positions and tells a replica going away from a bad query', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0')).toBe(1n << 32n);
    // The primary's insert position just past a page header: nothing written there yet.
    const sizes = { block: 8192, segment: String(16 * 1024 * 1024) };
    expect(lastRecordEnd({ lsn: '0/2002018', ...sizes })).toBe(0x2002000n);
    expect(lastRecordEnd({ lsn: '0/2000028', ...sizes })).toBe(0x2000000n);
    expect(lastRecordEnd({ lsn: '0/2002020', ...sizes })).toBe(0x2002020n);
    expect(lastRecordEnd({ lsn: '0/2000018', ...sizes })).toBe(0x2000018n);
    expect(isReplicaFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(
      true,
    );
    expect(isReplicaFailure({ message: 'x', driverError: { code: '57P01' } })).toBe(true);
    expect(isReplicaFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isReplicaFailure({ message: 'syntax error', driverError: { code: '42601' } })).toBe(false);
  });
});

/**
 * The "replica" is another database of the test cluster: a copy of the empty template, so what a read
 * finds tells where it ran (the primary has the data, the replica none). Not a standby, it counts as
 * caught up at each check; the real standby, its lag and its restart are test:prod's (read-replicas.mjs).
 */
describe('read replicas: routing', () => {
  let t: TestApp;
  let replica: TestDatabase;
  const visitor = () => supertest(t.url);

  beforeAll(async () => {
    replica = await createTestDatabase();
    t = await createTestApp({
      env: {
        DATABASE_READ_URL: replica.url,
        // Checked once as the app starts: it then counts as caught up to that moment only.
        DATABASE_READ_CHECK_MS: '60000',
        REQUIRE_VERIFIED_EMAIL: 'off',
      },
    });
    await waitFor('the replica up', () => t.app.get(ReadDatabase).states()[0]?.state === 'up');
  });

  afterAll(async () => {
    await t?.close();
    await replica?.drop();
  });

  it('serves a member their own write at once, a visitor the replica, and cache misses after a write from the primary', async () => {
    const alice = await registered(t);
    const tag = `rr${Date.now().toString(36)}`;
    await alice.browser
      .post(API.threads)
      .send({ title: 'On the primary', content: 'x\n', tags: [tag] })
      .expect(201);
    // Sign-in, session and permission checks ran on the primary: the replica has no member at all.
    const client = new Client(replica.url);
    await client.connect();
    const count = await client
      .query<{ count: string }>('SELECT count(*) FROM users')
      .then(({ rows }) => rows[0]!.count)
      .finally(() => client.end());
    expect(count).toBe('0');

    // The author carries the fresh cookie: the primary.
    const own = await alice.browser.get(API.tag(tag)).expect(200);
    expect((own.body as { threads: Array<{ title: string }> }).threads.map((c) => c.title)).toEqual([
      'On the primary',
    ]);
    // A visitor's tag page is a read that may lag: the replica, which has no such tag.
    await visitor().get(API.tag(tag)).expect(404);
    // Home was made stale by the write: its miss loads from the primary until the replica is known to
    // have replayed past it, so no visitor gets (nor the cache keeps) the page from before.
    const home = await visitor().get(API.threadsRecent).expect(200);
    expect(JSON.stringify(home.body)).toContain('On the primary');

    const scrape = (await t.app.get(Metrics).scrape()).text;
    expect(scrape).toMatch(/termpaste_db_reads_total\{target="replica"\} [1-9]/);
    expect(scrape).toMatch(/termpaste_db_reads_total\{target="primary"\} [1-9]/);
    expect(scrape).toMatch(/termpaste_db_read_replica_state\{replica="[^"]+",state="up"\} 1/);
    expect((await visitor().get(API.ready).expect(200)).body).toMatchObject({
      replicas: { up: 1, total: 1 },
    });
  });

  it("sends an access-token client's reads to the primary after its write, as any instance tells", async () => {
    const bob = await registered(t);
    const created = (
      await bob.browser
        .post(API.userTokens)
        .send({ name: 'cli', scopes: ['pastes:write', 'read'] })
        .expect(201)
    ).body as CreatedAccessToken;
    const other = (
      await bob.browser
        .post(API.userTokens)
        .send({ name: 'other', scopes: ['read'] })
        .expect(201)
    ).body as CreatedAccessToken;
    const tag = `rb${Date.now().toString(36)}`;
    await supertest(t.url)
      .post(API.threads)
      .set('Authorization', `Bearer ${created.token}`)
      .send({ title: 'By token', content: 'x\n', tags: [tag] })
      .expect(201);
    const mine = await supertest(t.url).get(API.tag(tag)).set('Authorization', `Bearer ${created.token}`);
    expect(mine.status).toBe(200);
    // Another client (another token) did not write: the replica.
    await supertest(t.url).get(API.tag(tag)).set('Authorization', `Bearer ${other.token}`).expect(404);
    // Until another instance tells of a write of its own (through the events port: Redis between them).
    await t.app
      .get(EventsPort)
      .broadcast({ type: 'client_wrote', client: clientKey(`Bearer ${other.token}`) });
    await supertest(t.url).get(API.tag(tag)).set('Authorization', `Bearer ${other.token}`).expect(200);
  });

  it('sends what a read left running to the primary once it ended', async () => {
    const name = async () =>
      ((await t.dataSource.query('SELECT current_database() AS name')) as Array<{ name: string }>)[0]!.name;
    let later: Promise<string> | undefined;
    // Its timer fires once the read has ended (a fixed delay raced a slow read on a busy machine).
    let ended = () => undefined as void;
    const end = new Promise<void>((resolve) => (ended = resolve));
    const where = await t.app.get(ReadDatabase).read(async () => {
      later = new Promise((resolve) => void end.then(() => setTimeout(() => resolve(name()), 10)));
      return name();
    });
    ended();
    expect(where).toBe(replica.name);
    expect(await later).toBe(t.database.name);
  });

  it('runs a read again on the primary when its replica goes away in the middle of it', async () => {
    const reads = t.app.get(ReadDatabase);
    const admin = new Client(replica.url);
    await admin.connect();
    let runs = 0;
    try {
      const where = await reads.read(async () => {
        const query = t.dataSource.query('SELECT current_database() AS name, pg_sleep(0.5)');
        // Once the read runs on the replica, the replica drops it (as a shutdown would); then the same
        // load runs again, on the primary.
        if (runs++ > 0) return ((await query) as Array<{ name: string }>)[0]!.name;
        await waitFor('the read on the replica', async () => {
          const { rows } = await admin.query(
            "SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep(0.5)%' AND pid <> pg_backend_pid()",
          );
          return rows.length > 0;
        });
        return ((await query) as Array<{ name: string }>)[0]!.name;
      });
      expect(where).toBe(t.database.name);
      expect(runs).toBe(2);
      expect((await t.app.get(Metrics).scrape()).text).toMatch(
        /termpaste_db_reads_total\{target="fallback"\} 1/,
      );
      // No more reads until a check finds it answering again.
      expect(reads.states()[0]?.state).toBe('down');
    } finally {
      await admin.end();
    }
  });

  it('finds the replica caught up while every connection of the primary pool is taken', async () => {
    const reads = t.app.get(ReadDatabase);
    // The app's pool, every connection held (a burst of slow queries); the checks have their own.
    const pool = (t.dataSource.driver as unknown as { master: Pool & { options: { max: number } } }).master;
    const held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
    try {
      expect(pool.totalCount).toBe(pool.options.max);
      // A check that waited for the app's pool (5 s at most) would not sample the primary now: it would
      // find the replica as far behind as its last sample, beyond the 2 s bound.
      await (reads as unknown as { check(): Promise<void> }).check();
      expect(reads.states()[0]).toMatchObject({ state: 'up' });
      expect(reads.states()[0]!.lagMs).toBeLessThan(1000);
    } finally {
      for (const client of held) client.release();
    }
  });
});

describe('read replicas: a replica that is down', () => {
  let t: TestApp;

  beforeAll(async () => {
    const closed = await freePort();
    t = await createTestApp({
      env: {
        DATABASE_READ_URL: `postgres://termpaste@127.0.0.1:${closed}/termpaste`,
        DATABASE_READ_CHECK_MS: '100',
        REQUIRE_VERIFIED_EMAIL: 'off',
      },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('gets no reads: they run on the primary, and the metrics say it is down', async () => {
    const reads = t.app.get(ReadDatabase);
    await waitFor('the replica down', () => reads.states()[0]?.state === 'down');
    const alice = await registered(t);
    const tag = `rd${Date.now().toString(36)}`;
    await alice.browser
      .post(API.threads)
      .send({ title: 'Still read', content: 'x\n', tags: [tag] })
      .expect(201);
    await supertest(t.url).get(API.tag(tag)).expect(200);
    await supertest(t.url).get(API.threadsRecent).expect(200);
    const scrape = (await t.app.get(Metrics).scrape()).text;
    expect(scrape).toMatch(
      /termpaste_db_read_replica_state\{replica="127\.0\.0\.1:\d+\/termpaste",state="down"\} 1/,
    );
    expect(scrape).not.toMatch(/termpaste_db_reads_total\{target="replica"\}/);
    // Still ready: its reads run on the primary.
    const ready = await supertest(t.url).get(API.ready).expect(200);
    expect(ready.body).toEqual({
      status: 'ready',
      db: 'up',
      redis: 'not configured',
      replicas: { up: 0, total: 1 },
    });
  });
});
