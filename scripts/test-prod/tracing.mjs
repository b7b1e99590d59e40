// Every process exports its spans to the loopback OTLP receiver (stack.mjs): a reply is one trace from
// its request through its SQL, the outbox and the queue to the worker's job and the live event it ends
// in; the password reset's trace (the step before) ends in the mail the worker sent.
import { assert, waitFor } from '../../harness/wait.mjs';

const API = 'termpaste-api';
const WORKER = 'termpaste-worker';

// Either generation of the HTTP and database semantic conventions.
const pathOf = (span) => span.attributes['url.path'] ?? span.attributes['http.target'];
const methodOf = (span) => span.attributes['http.request.method'] ?? span.attributes['http.method'];
const sqlOf = (span) => span.attributes['db.query.text'] ?? span.attributes['db.statement'];
const isSql = (span) => (span.attributes['db.system.name'] ?? span.attributes['db.system']) === 'postgresql';

/** The spans of `traceId` so far, and whether `span` descends from `ancestor` in it. */
function trace(spans, traceId) {
  const members = spans.filter((span) => span.traceId === traceId);
  const byId = new Map(members.map((span) => [span.spanId, span]));
  const under = (span, ancestor) => {
    for (let at = byId.get(span.parentSpanId); at; at = byId.get(at.parentSpanId)) {
      if (at === ancestor) return true;
    }
    return false;
  };
  return { members, under };
}

const label = (span) => `${span.service}: ${span.name}`;

/** The server span of `method path` (its route names it), from the API. */
function serverSpan(spans, method, path) {
  return spans.find(
    (span) =>
      span.service === API && span.kind === 'server' && methodOf(span) === method && pathOf(span) === path,
  );
}

export const tracing = {
  name: 'a reply is one trace: its request, SQL, the outbox, the worker job and its live event',
  async run(env) {
    const { alice, bob, otlp } = env;
    // alice replies on bob's paste: the notification is bob's, and the counts the kill step checks (alice's
    // and the mentioned members') stay as they were.
    const paste = await bob.expect(201, 'POST', '/api/threads', {
      title: 'Traced',
      content: 'a traced paste',
    });
    const path = `/api/threads/${paste.json.id}/replies`;
    await alice.expect(201, 'POST', path, { content: 'A traced reply' });
    const request = await waitFor('the server span of POST …/replies at the receiver', () =>
      serverSpan(otlp.spans, 'POST', path),
    );
    assert(
      request.parentSpanId === undefined,
      'the request span has a parent: the trace did not start there',
    );
    assert(
      request.name === 'POST /api/threads/:id/replies',
      `the request span is named "${request.name}", not by its route`,
    );

    // The worker's part arrives once its job ran and its batch went out.
    const found = await waitFor(
      'the trace to reach the worker job and its live event',
      () => {
        const { members, under } = trace(otlp.spans, request.traceId);
        const job = members.find(
          (span) =>
            span.service === WORKER &&
            span.kind === 'consumer' &&
            span.name === 'process notifications/reply',
        );
        const live = job && members.find((span) => span.name === 'live publish' && under(span, job));
        return live && { members, under, job, live };
      },
      15_000,
      200,
    );
    const { members, under, job, live } = found;
    const requestSql = members.filter((span) => span.service === API && isSql(span) && under(span, request));
    assert(
      requestSql.some((span) => /INSERT INTO replies/.test(sqlOf(span) ?? '')),
      `no pg span of the reply's INSERT under the request (SQL spans: ${requestSql.length})`,
    );
    const relay = members.find(
      (span) => span.name === 'outbox relay notifications' && span.kind === 'producer',
    );
    assert(relay && under(relay, request), 'no outbox relay span under the request');
    assert(under(job, relay), 'the job span does not continue the outbox relay span');
    const jobSql = members.filter((span) => span.service === WORKER && isSql(span) && under(span, job));
    assert(jobSql.length > 0, "no pg span of the worker's job");
    assert(
      live.attributes['termpaste.live.event'] !== undefined && live.service === WORKER,
      `the live publish span is ${label(live)}`,
    );
    const strays = members.filter((span) => span !== request && !under(span, request));
    assert(strays.length === 0, `spans of the trace outside the request: ${strays.map(label).join(', ')}`);

    // The password reset (the step before): its request's trace ends in the worker's SMTP send.
    const mail = await waitFor('the password reset trace to reach the mail send', () => {
      const reset = serverSpan(otlp.spans, 'POST', '/api/forgot-password');
      const resetTrace = reset && trace(otlp.spans, reset.traceId);
      const send = resetTrace?.members.find((span) => span.name === 'mail send' && span.service === WORKER);
      return send && resetTrace.under(send, reset) && send;
    });
    assert(mail.attributes['termpaste.mail.transport'] === 'smtp', 'the mail span does not say smtp');

    // A query string keeps its names only: paste keys, tokens and signatures never reach the collector.
    await bob.request('GET', `/api/threads/${paste.json.id}?key=secret-of-the-trace`);
    const read = await waitFor('the server span of the GET with a key', () =>
      serverSpan(otlp.spans, 'GET', `/api/threads/${paste.json.id}`),
    );
    assert(read.attributes['url.query'] === 'key=REDACTED', `url.query is ${read.attributes['url.query']}`);
    const leaked = otlp.spans.filter((span) => JSON.stringify(span).includes('secret-of-the-trace'));
    assert(leaked.length === 0, `the key is in ${leaked.map(label).join(', ')}`);

    // Probes and scrapes make no spans; both encodings arrived (the APIs' JSON, the worker's protobuf).
    const probes = otlp.spans.filter((span) =>
      ['/api/ready', '/api/health', '/health'].includes(pathOf(span)),
    );
    assert(probes.length === 0, `${probes.length} span(s) of health probes`);
    const encodings = [...otlp.encodings].sort().join(', ');
    assert(encodings === 'application/json, application/x-protobuf', `encodings received: ${encodings}`);
    return (
      `trace ${request.traceId}: ${members.length} spans, ${requestSql.length} SQL under the request, ` +
      `${jobSql.length} under the worker's job; the reset's trace ends in ${label(mail)}`
    );
  },
};
