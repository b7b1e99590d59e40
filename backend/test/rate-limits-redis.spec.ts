import { setTimeout as sleep } from 'node:timers/promises';
import { API, POST_MESSAGES } from '@termpaste/contracts';
import supertest from 'supertest';
import { RedisThrottlerStorage } from '../src/common/redis-throttler.storage.js';
import { registered, sessionCookie } from './support/accounts.js';
import { describeWithRedis, redisCommand, type RedisHandle, startRedis } from './support/redis.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

describeWithRedis('rate limits in Redis', () => {
  let redis: RedisHandle;

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  describe('RedisThrottlerStorage', () => {
    let storage: RedisThrottlerStorage;

    beforeAll(() => {
      storage = new RedisThrottlerStorage(redis.url, 'test:');
    });

    afterAll(async () => {
      await storage.onApplicationShutdown();
    });

    it('counts hits in a window, then blocks for the block duration', async () => {
      const hit = () => storage.increment('counting', 60_000, 2, 30_000, 'login');
      expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
      expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: false });
      expect(await hit()).toEqual({ totalHits: 3, timeToExpire: 60, isBlocked: true, timeToBlockExpire: 30 });
      expect(await hit()).toMatchObject({ isBlocked: true, timeToBlockExpire: 30 });
    });

    it('keeps keys and throttlers apart', async () => {
      await storage.increment('apart', 60_000, 1, 60_000, 'login');
      expect(await storage.increment('apart', 60_000, 1, 60_000, 'login')).toMatchObject({ isBlocked: true });
      expect(await storage.increment('apart', 60_000, 1, 60_000, 'register')).toMatchObject({
        isBlocked: false,
      });
      expect(await storage.increment('other', 60_000, 1, 60_000, 'login')).toMatchObject({
        isBlocked: false,
      });
    });

    it('starts a new window when the old one ends', async () => {
      await storage.increment('window', 150, 5, 150, 'login');
      await storage.increment('window', 150, 5, 150, 'login');
      await sleep(250);
      expect(await storage.increment('window', 150, 5, 150, 'login')).toMatchObject({ totalHits: 1 });
    });

    it('counts afresh once a block is over', async () => {
      await storage.increment('block', 60_000, 1, 150, 'login');
      expect(await storage.increment('block', 60_000, 1, 150, 'login')).toMatchObject({ isBlocked: true });
      await sleep(250);
      expect(await storage.increment('block', 60_000, 1, 150, 'login')).toMatchObject({
        totalHits: 1,
        isBlocked: false,
      });
    });

    it('leaves keys that expire in Redis, under its prefix, with both keys in one hash slot', async () => {
      await storage.increment('expiring', 60_000, 1, 60_000, 'login');
      await storage.increment('expiring', 60_000, 1, 60_000, 'login');
      const keys = await redisCommand(redis.port, 'KEYS test:{login:expiring}*');
      expect(keys).toContain('test:{login:expiring}:blocked');
      const ttl = Number((await redisCommand(redis.port, 'PTTL test:{login:expiring}:blocked')).slice(1));
      expect(ttl).toBeGreaterThan(59_000);
    });

    it('counts concurrent hits exactly (one script, atomically)', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, () => storage.increment('concurrent', 60_000, 10, 60_000, 'login')),
      );
      expect(results.filter((result) => !result.isBlocked)).toHaveLength(10);
    });
  });

  describe('two instances with one REDIS_URL', () => {
    let first: TestApp;
    let second: TestApp;

    beforeAll(async () => {
      const env = { REDIS_URL: redis.url, RATE_LIMITS: 'on', RATE_LIMIT_LOGIN_PER_MINUTE: '3' };
      first = await createTestApp({ env });
      second = await createTestApp({ env, database: first.database });
    });

    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('share the counts: attempts on either add up', async () => {
      expect(first.logs.text()).toContain('Rate limits: counted in Redis (shared by every instance)');
      const attempt = (t: TestApp) =>
        t.browser().post(API.login).send({ usernameOrEmail: 'shared_account', password: 'wrong password' });
      await attempt(first).expect(401);
      await attempt(second).expect(401);
      await attempt(first).expect(401);
      const res = await attempt(second).expect(429);
      expect(res.body.message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('sign-in, reset links and search from several addresses, two instances with one REDIS_URL', () => {
    let first: TestApp;
    let second: TestApp;
    const SLOWDOWN_MS = 1000;

    beforeAll(async () => {
      const env = {
        REDIS_URL: redis.url,
        RATE_LIMITS: 'on',
        // The tests' X-Forwarded-For is the client address, as behind one proxy.
        TRUST_PROXY: '1',
        RATE_LIMIT_LOGIN_PER_ACCOUNT_PER_HOUR: '2',
        RATE_LIMIT_LOGIN_SLOWDOWN_MS: String(SLOWDOWN_MS),
        RATE_LIMIT_FORGOT_PASSWORD_INTERVAL_SECONDS: '2',
        RATE_LIMIT_SEARCH_PER_MINUTE: '2',
      };
      first = await createTestApp({ env });
      second = await createTestApp({ env, database: first.database });
    });

    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    const post = (t: TestApp, path: string, from: string, body: object) =>
      supertest(t.url).post(path).set('Origin', t.url).set('X-Forwarded-For', from).send(body);

    async function timed(request: PromiseLike<{ status: number }>) {
      const started = performance.now();
      const { status } = await request;
      return { status, ms: performance.now() - started };
    }

    it('slows, never refuses, sign-in on an account past its hourly attempts on either instance', async () => {
      const { account } = await registered(first);
      const wrong = { usernameOrEmail: account.username, password: 'wrong password' };
      expect(await timed(post(first, API.login, '192.0.2.1', wrong))).toMatchObject({ status: 401 });
      const second2 = await timed(post(second, API.login, '192.0.2.2', wrong));
      expect(second2.status).toBe(401);
      expect(second2.ms).toBeLessThan(SLOWDOWN_MS);
      const third = await timed(post(first, API.login, '192.0.2.3', wrong));
      expect(third.status).toBe(401);
      expect(third.ms).toBeGreaterThanOrEqual(SLOWDOWN_MS);
      const right = { usernameOrEmail: account.username, password: account.password };
      const member = await timed(post(second, API.login, '192.0.2.4', right));
      expect(member.status).toBe(200);
      expect(member.ms).toBeGreaterThanOrEqual(SLOWDOWN_MS);
    });

    it("sends the member's reset link after a stranger's, once the interval has passed, on either instance", async () => {
      const { account } = await registered(first);
      const mails = () => [...first.mail.to(account.email), ...second.mail.to(account.email)].length;
      await post(first, API.forgotPassword, '192.0.2.10', { email: account.email }).expect(200);
      const refused = await post(second, API.forgotPassword, '192.0.2.11', { email: account.email }).expect(
        429,
      );
      const seconds = Number(refused.headers['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(2);
      await sleep(seconds * 1000 + 100);
      await post(second, API.forgotPassword, '192.0.2.11', { email: account.email }).expect(200);
      await waitFor('both reset links', () => mails() === 2);
    });

    it('counts searches per address over both instances, signed in or not', async () => {
      const member = await registered(first);
      const search = (browser: ReturnType<TestApp['browser']> | supertest.Agent, from: string) =>
        browser.get(API.search).query({ q: 'anything' }).set('X-Forwarded-For', from);
      await search(supertest.agent(second.url), '192.0.2.20').expect(200);
      await search(member.browser, '192.0.2.20').expect(200);
      const res = await search(supertest.agent(second.url), '192.0.2.20').expect(429);
      expect(res.body.message).toBe(POST_MESSAGES.searchTooFast(Number(res.headers['retry-after'])));
      await search(member.browser, '192.0.2.20').expect(429);
      await search(member.browser, '192.0.2.21').expect(200);
    });
  });

  describe("the forum's per-member write limits, two instances with one REDIS_URL", () => {
    let first: TestApp;
    let second: TestApp;

    beforeAll(async () => {
      const env = { REDIS_URL: redis.url, RATE_LIMITS: 'on', RATE_LIMIT_VOTES_PER_MINUTE: '2' };
      first = await createTestApp({ env });
      second = await createTestApp({ env, database: first.database });
    });

    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it("share one member's count: votes on either add up", async () => {
      const { browser, user } = await registered(first);
      const threadId = (await browser.post(API.threads).send({ title: 't', content: 'c' }).expect(201)).body
        .id as number;
      const cookie = sessionCookie(await browser.get(API.currentUser).expect(200))!.split(';')[0]!;
      const onSecond = () =>
        supertest(second.url)
          .post(API.votes)
          .set('Origin', second.url)
          .set('Cookie', cookie)
          .send({ threadId, value: 1 });
      await browser.post(API.votes).send({ threadId, value: 1 }).expect(200);
      await onSecond().expect(200);
      const res = await onSecond().expect(429);
      expect(res.body.message).toBe(POST_MESSAGES.voteTooFast(Number(res.headers['retry-after'])));
      // Counted per member: another member votes on the same paste through the second instance.
      const other = await registered(second);
      await other.browser.post(API.votes).send({ threadId, value: 1 }).expect(200);
      expect(user.id).not.toBe(other.user.id);
    });
  });
});
