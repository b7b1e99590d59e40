import { API, readySchema } from '@termpaste/contracts';
import { describeWithRedis, type RedisHandle, startRedis } from './support/redis.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('GET /api/ready (no REDIS_URL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('is 200 with the database up, Redis not configured, never cached', async () => {
    const res = await t.http.get(API.ready).expect(200);
    expect(readySchema.parse(res.body)).toEqual({ status: 'ready', db: 'up', redis: 'not configured' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is 503 naming the database once it is gone, within ~2 s; /api/health (liveness) stays 200', async () => {
    await t.database.drop();
    const started = Date.now();
    const res = await t.http.get(API.ready).expect(503);
    expect(res.body).toEqual({ status: 'not ready', db: 'down', redis: 'not configured' });
    expect(Date.now() - started).toBeLessThan(3000);
    await t.http.get(API.health).expect(200, { status: 'ok', db: 'down' });
  });
});

describeWithRedis('GET /api/ready with REDIS_URL', () => {
  let redis: RedisHandle;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startRedis();
    t = await createTestApp({ env: { REDIS_URL: redis.url } });
  });

  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('is 200 with PostgreSQL and Redis up', async () => {
    const res = await t.http.get(API.ready).expect(200);
    expect(res.body).toEqual({ status: 'ready', db: 'up', redis: 'up' });
  });

  it("is 503 with redis 'down' once Redis is gone, within ~2 s, while /api/health (liveness) stays 200", async () => {
    await redis.stop();
    for (const _ of [1, 2]) {
      const started = Date.now();
      const res = await t.http.get(API.ready).expect(503);
      expect(res.body).toEqual({ status: 'not ready', db: 'up', redis: 'down' });
      expect(Date.now() - started).toBeLessThan(3000);
    }
    await t.http.get(API.health).expect(200, { status: 'ok', db: 'up' });
  });
});
