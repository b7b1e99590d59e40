import { readFileSync } from 'node:fs';
import { API } from '@termpaste/contracts';
import supertest from 'supertest';
import { MAIL_QUEUE } from '../src/infra/mail/mail.service.js';
import { MetricsListener } from '../src/infra/metrics/metrics.module.js';
import { METRICS_MESSAGES } from '../src/infra/metrics/metrics-http.js';
import { UNMATCHED_ROUTE } from '../src/infra/metrics/metrics.js';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import { newAccount, sessionCookie } from './support/accounts.js';
import { connect } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const TOKEN = 'metrics-token-for-the-tests-0123456789';

/** Every family the server exports (the dashboard and the operators' docs name them). */
export const FAMILIES = [
  'termpaste_http_request_duration_seconds',
  'termpaste_db_pool_clients',
  'termpaste_db_pool_max',
  'termpaste_db_query_duration_seconds',
  'termpaste_page_cache_requests_total',
  'termpaste_queue_jobs',
  'termpaste_queue_job_duration_seconds',
  'termpaste_queue_job_failures_total',
  'termpaste_outbox_backlog',
  'termpaste_live_sockets',
  'termpaste_live_online_members',
  'termpaste_mail_sent_total',
  'termpaste_mail_failures_total',
  'nodejs_eventloop_lag_seconds',
  'nodejs_heap_size_used_bytes',
  'nodejs_gc_duration_seconds',
];

/** `series → value` of a scrape (`name{labels}` as written). */
function samples(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

/** The families a scrape declares (`# TYPE name type`). */
function families(text: string): Set<string> {
  return new Set([...text.matchAll(/^# TYPE (\S+) \S+$/gm)].map((match) => match[1]!));
}

describe('GET /metrics', () => {
  let t: TestApp;

  const scrape = async (): Promise<string> =>
    (await supertest(t.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;

  beforeAll(async () => {
    t = await createTestApp({
      env: { METRICS_TOKEN: TOKEN, REQUIRE_VERIFIED_EMAIL: 'false' },
      queuedMail: true,
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('wants the bearer token: 401 with a plain message without it or with a wrong one', async () => {
    const none = await supertest(t.url).get('/metrics').expect(401);
    expect(none.text).toBe(METRICS_MESSAGES.unauthorized);
    expect(none.headers['content-type']).toMatch(/^text\/plain/);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    await supertest(t.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}x`).expect(401);
    await supertest(t.url).get('/metrics').set('Authorization', TOKEN).expect(401);
    const res = await supertest(t.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    // A scrape is neither counted as a request nor logged.
    expect(res.text).not.toContain('route="/metrics"');
  });

  it('exports every family, and a small load moves them', async () => {
    const before = samples(await scrape());
    expect([...families(await scrape())].sort()).toEqual(expect.arrayContaining(FAMILIES));

    const browser = t.browser();
    const registration = await browser.post(API.register).send(newAccount()).expect(201);
    const created = await browser.post(API.threads).send({ title: 'Measured', content: 'x' }).expect(201);
    const id = (created.body as { id: number }).id;
    const visitor = supertest(t.url);
    for (let i = 0; i < 20; i++) await visitor.get(API.thread(id)).expect(200);
    await visitor.get('/api/no-such-route').expect(404);
    const socket = await connect(t, { cookie: sessionCookie(registration)!.split(';')[0]! });
    // The verification mail goes through the queue to the outbox folder.
    await waitFor(
      'the verification mail sent',
      async () => (samples(await scrape()).get('termpaste_mail_sent_total{transport="file"}') ?? 0) > 0,
    );
    const after = samples(await scrape());
    socket.ws.close();

    const moved = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
    const detail = `route="${API.thread(':id')}"`;
    expect(moved(`termpaste_http_request_duration_seconds_count{${detail},method="GET",status="200"}`)).toBe(
      20,
    );
    expect(
      moved(`termpaste_http_request_duration_seconds_bucket{le="+Inf",${detail},method="GET",status="200"}`),
    ).toBe(20);
    expect(
      moved(
        `termpaste_http_request_duration_seconds_count{route="${API.threads}",method="POST",status="201"}`,
      ),
    ).toBe(1);
    expect(
      moved(
        `termpaste_http_request_duration_seconds_count{route="${UNMATCHED_ROUTE}",method="GET",status="404"}`,
      ),
    ).toBe(1);
    // Labelled by the route's pattern, never the URL.
    expect([...after.keys()].some((series) => series.includes(`/api/threads/${id}`))).toBe(false);
    expect(moved('termpaste_page_cache_requests_total{page="detail",result="hit"}')).toBeGreaterThanOrEqual(
      19,
    );
    expect(moved('termpaste_page_cache_requests_total{page="detail",result="miss"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(moved('termpaste_db_query_duration_seconds_count')).toBeGreaterThan(5);
    expect(
      moved('termpaste_queue_job_duration_seconds_count{queue="mail",outcome="completed"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(after.get('termpaste_mail_sent_total{transport="file"}')).toBeGreaterThanOrEqual(1);
    expect(after.get('termpaste_live_sockets{kind="member"}')).toBe(1);
    expect(after.get('termpaste_live_online_members')).toBe(1);
    expect(after.get('termpaste_db_pool_clients{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(after.get('termpaste_db_pool_max')).toBe(t.config.databasePoolSize);
    expect(after.get('termpaste_queue_jobs{queue="mail",state="waiting"}')).toBe(0);
    expect(after.get('termpaste_outbox_backlog')).toBeGreaterThanOrEqual(0);
    expect(after.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('counts a failed job by queue, and the in-process queue reports its delayed and failed jobs', async () => {
    const before = samples(await scrape());
    const queue = t.app.get(QueuePort);
    // The mail processor refuses a job it does not know: one attempt, a final failure.
    await queue.add(MAIL_QUEUE, 'no-such-job', {}, { attempts: 1 });
    await queue.add(MAIL_QUEUE, 'no-such-job', {}, { delayMs: 3_600_000 });
    const failures = 'termpaste_queue_job_failures_total{queue="mail",final="true"}';
    await waitFor(
      'the failure counted',
      async () => (samples(await scrape()).get(failures) ?? 0) > (before.get(failures) ?? 0),
    );
    const after = samples(await scrape());
    expect(after.get('termpaste_queue_jobs{queue="mail",state="delayed"}')).toBe(1);
    expect(after.get('termpaste_queue_jobs{queue="mail",state="failed"}')).toBe(
      (before.get('termpaste_queue_jobs{queue="mail",state="failed"}') ?? 0) + 1,
    );
    const failed = 'termpaste_queue_job_duration_seconds_count{queue="mail",outcome="failed"}';
    expect((after.get(failed) ?? 0) - (before.get(failed) ?? 0)).toBe(1);
  });

  it('every query of the Grafana dashboard names a family the server exports', async () => {
    const exported = families(await scrape());
    const dashboard = JSON.parse(
      readFileSync(new URL('../../deploy/grafana/termpaste.json', import.meta.url), 'utf8'),
    ) as { panels: Array<{ title: string; targets?: Array<{ expr: string }> }> };
    const exprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
    expect(exprs.length).toBeGreaterThan(10);
    const named = exprs.flatMap((expr) => [...expr.matchAll(/\b((?:termpaste|nodejs|process)_[a-z0-9_]+)/g)]);
    const unknown = named
      .map((match) => match[1]!.replace(/_(bucket|count|sum)$/, ''))
      .filter((name) => !exported.has(name));
    expect(unknown).toEqual([]);
    // And each family has a panel.
    const shown = new Set(named.map((match) => match[1]!.replace(/_(bucket|count|sum)$/, '')));
    expect(FAMILIES.filter((family) => !shown.has(family))).toEqual([]);
  });
});

describe('METRICS_LISTEN', () => {
  it('serves /metrics on its own address only (404 on the main port)', async () => {
    const t = await createTestApp({ env: { METRICS_LISTEN: '127.0.0.1:0' } });
    let url: string | undefined;
    try {
      await supertest(t.url).get('/metrics').expect(404);
      url = t.app.get(MetricsListener).url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const res = await fetch(url!);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE termpaste_http_request_duration_seconds histogram');
      expect((await fetch(url!.replace('/metrics', '/api/health'))).status).toBe(404);
    } finally {
      await t.close();
    }
    // Closed with the app.
    await expect(fetch(url!)).rejects.toThrow();
  });
});
