import { API, healthSchema } from '@termpaste/contracts';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('GET /api/health', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('is 200 with the database up', async () => {
    const res = await t.http.get(API.health).expect(200);
    expect(healthSchema.parse(res.body)).toEqual({ status: 'ok', db: 'up' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('has no /metrics without METRICS_TOKEN or METRICS_LISTEN: never public, never the app shell', async () => {
    const res = await t.http.get('/metrics').expect(404);
    expect(res.text).toBe('Not Found');
    await t.http.get('/metrics').set('Authorization', 'Bearer anything-at-all-0123456789').expect(404);
    await t.http.get('/metrics/').expect(404);
  });

  it('runs on a migrated database (citext is installed)', async () => {
    const rows: Array<{ extname: string }> = await t.dataSource.query(
      "SELECT extname FROM pg_extension WHERE extname = 'citext'",
    );
    expect(rows).toEqual([{ extname: 'citext' }]);
  });

  it('stays 200 once the database is gone (liveness), reporting it; readiness is 503', async () => {
    await t.database.drop(); // disconnects the app's pool, and new connections fail
    const started = Date.now();
    const res = await t.http.get(API.health).expect(200);
    expect(healthSchema.parse(res.body)).toEqual({ status: 'ok', db: 'down' });
    expect(Date.now() - started).toBeLessThan(1000);
    await t.http.get(API.ready).expect(503);
  });
});
