// Load: autocannon on one route, the chat fan-out over WebSockets, and the ceilings (ceilings.mjs) served
// beside the app to read every figure against.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import { root } from '../harness/paths.mjs';
import { CHAT_RATE, chatSockets, connections, duration, smoke } from './settings.mjs';

/**
 * How often autocannon samples its counters, and so when it notices its run is over: at its default of a
 * second, a smoke's 0.2 s warm-up and 0.5 s run took a full second each. The full bench keeps the default.
 */
const SAMPLE_MS = smoke ? 100 : 1000;

export function summarize(result, extra = {}) {
  const errors = result.errors + result.timeouts;
  return {
    // Requests per sample, per second.
    rps: Math.round((result.requests.average * 1000) / SAMPLE_MS),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors,
    ...extra,
  };
}

/**
 * One route under `connections` connections for `duration` s, after a short warm-up. `perClient(i)` and
 * `perClientBody(i)`: connection i's own headers (its member's cookie) and body; `onResponse(status,
 * body)` sees every measured answer.
 */
export async function load(
  url,
  { path, method = 'GET', headers = {}, body, perClient, perClientBody, onResponse },
) {
  const run = (seconds, record) => {
    let clients = 0;
    return autocannon({
      url: url + path,
      connections,
      duration: seconds,
      sampleInt: SAMPLE_MS,
      requests: [{ method, path, headers, body, onResponse: record ? onResponse : undefined }],
      setupClient(client) {
        const i = clients++;
        const own = { ...headers, ...perClient?.(i) };
        if (perClientBody) client.setHeadersAndBody(own, perClientBody(i));
        else if (perClient) client.setHeaders(own);
      },
    });
  };
  await run(smoke ? 0.2 : 1, false);
  return run(duration, true);
}
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * The live chat fan-out: `chatSockets` sockets, CHAT_RATE messages a second for `duration` s; each
 * delivery's latency from the moment the message was sent. `post(seq)` sends message `seq`.
 */
export async function fanOut({ wsUrl, socketHeaders, post }) {
  const sentAt = new Map();
  const latencies = [];
  let delivered = 0;
  const sockets = [];
  await Promise.all(
    Array.from(
      { length: chatSockets },
      (_, i) =>
        new Promise((resolve, reject) => {
          const socket = new WebSocket(wsUrl, { headers: socketHeaders(i) });
          const seen = new Set();
          socket.on('message', (data) => {
            const now = performance.now();
            const frame = JSON.parse(data.toString());
            const match = /^bench (\d+)$/.exec(frame.message?.content ?? '');
            if (!match) return;
            const seq = Number(match[1]);
            // Two events per message (chat_message, new_message): the first to arrive counts.
            if (seen.has(seq)) return;
            seen.add(seq);
            delivered++;
            latencies.push(now - sentAt.get(seq));
          });
          socket.once('open', resolve);
          socket.once('error', reject);
          socket.once('unexpected-response', (_req, res) => reject(new Error(`socket: ${res.statusCode}`)));
          sockets.push(socket);
        }),
    ),
  );
  await sleep(500);
  const count = Math.max(1, Math.round(duration * CHAT_RATE));
  let failed = 0;
  const started = performance.now();
  const posts = [];
  for (let seq = 0; seq < count; seq++) {
    const due = started + (seq * 1000) / CHAT_RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    sentAt.set(seq, performance.now());
    posts.push(
      post(seq).then(
        (res) => res.ok || failed++,
        () => failed++,
      ),
    );
  }
  await Promise.all(posts);
  const expected = count * chatSockets;
  for (let waited = 0; delivered < expected && waited < 5000; waited += 100) await sleep(100);
  for (const socket of sockets) socket.terminate();
  latencies.sort((a, b) => a - b);
  return {
    sockets: chatSockets,
    messages: count,
    delivered,
    expected,
    failedPosts: failed,
    p50: +percentile(latencies, 50).toFixed(2),
    p99: +percentile(latencies, 99).toFixed(2),
  };
}

export function startReference(kind, payloadFile) {
  const child = spawn(process.execPath, [join(root, 'bench/ceilings.mjs'), kind, payloadFile ?? ''], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`reference server ${kind} exited (${code})`)));
    child.stdout.on('data', (chunk) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match)
        resolve({ url: `http://127.0.0.1:${match[1]}`, pid: child.pid, stop: () => child.kill('SIGKILL') });
    });
  });
}
