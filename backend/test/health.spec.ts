import { get, Agent } from 'node:http';
import { API, healthSchema } from '@termpaste/contracts';
import { KEEP_ALIVE_TIMEOUT_MS } from '../src/app.js';
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

  it('keeps an idle connection longer than a proxy in front keeps its own (nginx: 60 s)', async () => {
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    const agent = new Agent({ keepAlive: true });
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      get(`${t.url}${API.health}`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers));
      }).on('error', reject);
    });
    agent.destroy();
    expect(headers['keep-alive']).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
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
