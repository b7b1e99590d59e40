// /metrics on both APIs and the worker (METRICS_TOKEN): after the reply and the reset mail went through
// the worker, its job, queue and mail families have moved; a scrape is never served through nginx.
import { assert } from '../../harness/wait.mjs';
import { METRICS_TOKEN } from './context.mjs';

/** `series → value` of a scrape. */
function samples(text) {
  const values = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

async function scrape(url) {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  assert(res.status === 200, `${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return samples(text);
}

export const metrics = {
  name: '/metrics: both APIs and the worker answer the token only; queue, job and mail families moved',
  async run(env) {
    const apis = env.apis.map(({ port }) => `http://127.0.0.1:${port}`);
    const worker = `http://127.0.0.1:${env.workerHealthPort}/metrics`;
    for (const url of [...apis.map((api) => `${api}/metrics`), worker]) {
      const refused = await fetch(url);
      assert(refused.status === 401, `${url} without the token answered ${refused.status}`);
    }
    const proxied = await fetch(`${env.publicUrl}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    assert(!(await proxied.text()).includes('# TYPE termpaste_'), 'nginx serves /metrics to the public');

    // The worker restarted in the reply step: since then it made the notification and sent the reset mail.
    const ran = await scrape(worker);
    for (const series of [
      'termpaste_queue_job_duration_seconds_count{queue="notifications",outcome="completed"}',
      'termpaste_queue_job_duration_seconds_count{queue="mail",outcome="completed"}',
      'termpaste_mail_sent_total{transport="smtp"}',
    ]) {
      assert((ran.get(series) ?? 0) >= 1, `the worker's ${series} is ${ran.get(series)}`);
    }
    assert(ran.has('termpaste_queue_jobs{queue="mail",state="waiting"}'), 'no queue depth on the worker');
    assert(ran.has('termpaste_outbox_backlog'), 'no outbox backlog on the worker');

    // A small load on the first API moves its request counter by as much.
    const series =
      'termpaste_http_request_duration_seconds_count{route="/api/threads/recent",method="GET",status="200"}';
    const before = (await scrape(`${apis[0]}/metrics`)).get(series) ?? 0;
    for (let i = 0; i < 5; i++)
      assert((await fetch(`${apis[0]}/api/threads/recent`)).ok, 'recent pastes failed');
    const after = await scrape(`${apis[0]}/metrics`);
    assert(
      after.get(series) - before === 5,
      `${series} moved from ${before} to ${after.get(series)}, not by 5`,
    );
    // Queue depth comes from Redis: every process reports every queue.
    assert(
      after.has('termpaste_queue_jobs{queue="notifications",state="failed"}'),
      'no queue depth on api #1',
    );
    const replies = (await Promise.all(apis.map((api) => scrape(`${api}/metrics`)))).reduce(
      (sum, scraped) =>
        sum +
        (scraped.get(
          'termpaste_http_request_duration_seconds_count{route="/api/threads/:id/replies",method="POST",status="201"}',
        ) ?? 0),
      0,
    );
    assert(replies >= 1, 'no API counted the reply');
    return `worker: ${ran.get('termpaste_queue_job_duration_seconds_count{queue="notifications",outcome="completed"}')} notification job(s), ${ran.get('termpaste_mail_sent_total{transport="smtp"}')} mail(s); api #1 counted 5 of 5 requests`;
  },
};
