// The members' load generator (a child process of `npm run bench -- --members`, so that its CPU is its
// own in /proc): simulated members, each with its session cookie and its live socket open, reading and
// writing with a think time between actions; visitors reading beside them. The parent (members.mjs)
// tells it how many to run and when to measure; it answers with each window's figures.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { makeAct, summary } from './members-actions.mjs';

/** @type {{ url: string, wsUrl: string, members: {id:number, cookie:string}[], config: any, pasteIds: number[], homeIds: number[], profileIds: number[], words: string[] }} */
let init;
let agent;
const running = []; // the members live now, in order of arrival
const visitors = [];
let window = null; // the figures of the window being measured, or null between windows
let chatSeq = 0;
/** Chat messages posted in a window: seq → { sentAt, expected, delivered }. */
const chats = new Map();
let openSockets = 0;
const origin = () => ({ Origin: init.url });

const pick = (list) => list[Math.floor(Math.random() * list.length)];
/** A paste a member opens: the home page's half the time, else a popular one (a Zipf-like tail), else any. */
function pasteId() {
  const r = Math.random();
  if (r < 0.5) return pick(init.homeIds);
  if (r < 0.85) return init.pasteIds[Math.floor(init.pasteIds.length * Math.random() ** 3)];
  return 1 + Math.floor(Math.random() * init.config.pastes);
}
const think = () => init.config.think * 1000 * (0.5 + Math.random());

function newWindow() {
  return {
    started: performance.now(),
    reads: [],
    visitorReads: [],
    writes: [],
    byAction: {},
    errors: 0,
    errorSamples: [],
    pastes: [],
    replies: [],
    chatIds: [],
    held: 0,
  };
}

/** One HTTP request; resolves to { status, body? , ms }. Never rejects (status 0: no answer). */
function request(method, path, { cookie, body, wantBody = false } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const headers = { 'Accept-Encoding': 'gzip', ...origin() };
    if (cookie) headers.Cookie = cookie;
    let payload;
    if (body !== undefined) {
      payload = Buffer.from(JSON.stringify(body));
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = payload.length;
    }
    const req = http.request(init.url + path, { method, headers, agent }, (res) => {
      const chunks = wantBody || res.statusCode >= 400 ? [] : null;
      res.on('data', (chunk) => chunks?.push(chunk));
      res.on('end', () => {
        const ms = performance.now() - started;
        let parsed;
        if (chunks) {
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            parsed = undefined;
          }
        }
        resolve({ status: res.statusCode, body: parsed, ms });
      });
      res.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, error: error.message }));
    if (payload) req.write(payload);
    req.end();
  });
}

function record(kind, action, result, ok) {
  const w = window;
  if (!w) return;
  (w[kind] ?? w.reads).push(result.ms);
  const a = (w.byAction[action] ??= { count: 0, errors: 0, ms: [] });
  a.count++;
  a.ms.push(result.ms);
  if (!ok) {
    a.errors++;
    w.errors++;
    if (w.errorSamples.length < 5)
      w.errorSamples.push(
        `${action}: ${result.status} ${result.error ?? JSON.stringify(result.body ?? '').slice(0, 120)}`,
      );
  }
}

function watch(member, frame) {
  if (member.socket?.readyState === WebSocket.OPEN)
    member.socket.send(JSON.stringify({ type: 'watch', ...frame }));
}

const act = makeAct({
  init: () => init,
  window: () => window,
  chats,
  nextChat: () => ++chatSeq,
  openSockets: () => openSockets,
  request,
  record,
  watch,
  connect,
  pick,
  pasteId,
});

async function visitorAct() {
  const home = Math.random() < 0.4;
  const r = await request('GET', home ? '/api/threads/recent' : `/api/threads/${pasteId()}`);
  record('visitorReads', home ? 'visitorHome' : 'visitorPaste', r, r.status === 200);
}

const actions = () => Object.entries(init.config.mix);
function draw() {
  let r = Math.random();
  for (const [action, share] of actions()) {
    if ((r -= share) < 0) return action;
  }
  return 'home';
}

async function live(member) {
  await sleep(Math.random() * think());
  while (member.active) {
    await act(member, draw()).catch(() => undefined);
    await sleep(think());
  }
}

async function visit(visitor) {
  await sleep(Math.random() * think());
  while (visitor.active) {
    await visitorAct().catch(() => undefined);
    await sleep(think());
  }
}

function onFrame(got, data) {
  // Only chat frames are read: the rest (counts, cards, votes) are skipped unparsed.
  const text = data.toString();
  const at = text.indexOf('"members chat ');
  if (at < 0 || !text.includes('"type":"chat_message"')) return;
  const seq = Number(/members chat (\d+)/.exec(text.slice(at))[1]);
  const chat = chats.get(seq);
  if (!chat || got.has(seq)) return;
  got.add(seq);
  chat.delivered++;
  if (chat.latencies.length < 2000) chat.latencies.push(performance.now() - chat.sentAt);
}

/** Opens a member's live socket as the browser does (`/ws/chat`, our Origin, the session cookie). */
function connect(member) {
  return new Promise((resolve) => {
    const socket = new WebSocket(init.wsUrl, {
      headers: { Origin: init.url, Cookie: member.cookie },
      perMessageDeflate: true, // as Chromium offers it
    });
    member.socket = socket;
    let settled = false;
    const done = (ok, why) => {
      if (settled) return;
      settled = true;
      resolve(ok ? null : why);
    };
    // The chat messages this socket got; one it closes before getting is not owed to it (a reload).
    const got = new Set();
    socket.on('message', (data) => onFrame(got, data));
    socket.once('open', () => {
      openSockets++;
      const openedAt = performance.now();
      socket.once('close', (code) => {
        openSockets--;
        for (const [seq, chat] of chats) if (chat.sentAt >= openedAt && !got.has(seq)) chat.expected--;
        if (member.active && !member.reloading && member.socket === socket && window) {
          window.errors++;
          if (window.errorSamples.length < 5) window.errorSamples.push(`socket closed ${code}`);
        }
      });
      done(true);
    });
    socket.on('error', (error) => done(false, error.message));
    socket.once('unexpected-response', (_req, res) => done(false, `socket refused: ${res.statusCode}`));
  });
}

/** Brings the members up to `count` (sockets opened `parallel` at a time) and the visitors along. */
async function grow(count) {
  const failures = [];
  const started = performance.now();
  const next = init.members.slice(running.length, count);
  for (let i = 0; i < next.length; i += init.config.connectParallel) {
    const batch = next.slice(i, i + init.config.connectParallel).map((m) => ({ ...m, seq: 0, active: true }));
    const results = await Promise.all(batch.map(connect));
    for (const [j, why] of results.entries()) {
      if (why) failures.push(why);
      running.push(batch[j]);
      void live(batch[j]);
    }
  }
  const wantVisitors = Math.round(count * init.config.visitors);
  while (visitors.length < wantVisitors) {
    const v = { active: true };
    visitors.push(v);
    void visit(v);
  }
  return {
    members: running.length,
    sockets: openSockets,
    connectFailures: failures.length,
    failureSamples: failures.slice(0, 5),
    connectMs: Math.round(performance.now() - started),
  };
}

/** Ends the window: waits for its chat messages to reach every socket (or the wait to run out). */
async function stop() {
  const w = window;
  window = null;
  const seconds = (performance.now() - w.started) / 1000;
  const waitUntil = performance.now() + init.config.deliveryWaitMs;
  const missing = () => [...chats.values()].reduce((n, c) => n + Math.max(0, c.expected - c.delivered), 0);
  while (missing() > 0 && performance.now() < waitUntil) await sleep(100);
  const chatLatencies = [...chats.values()].flatMap((c) => c.latencies);
  const chat = {
    messages: chats.size,
    expected: [...chats.values()].reduce((n, c) => n + c.expected, 0),
    delivered: [...chats.values()].reduce((n, c) => n + Math.min(c.delivered, c.expected), 0),
    lost: missing(),
    ...summary(chatLatencies),
  };
  chats.clear();
  const allReads = [...w.reads, ...w.visitorReads];
  return {
    seconds: +seconds.toFixed(1),
    members: running.length,
    visitors: visitors.length,
    sockets: openSockets,
    reads: summary(allReads),
    memberReads: summary(w.reads),
    visitorReads: summary(w.visitorReads),
    writes: summary(w.writes),
    actionsPerSecond: Math.round((w.reads.length + w.writes.length) / seconds),
    requestsPerSecond: Math.round((allReads.length + w.writes.length) / seconds),
    byAction: Object.fromEntries(
      Object.entries(w.byAction).map(([k, { count, errors, ms }]) => [k, { count, errors, ...summary(ms) }]),
    ),
    errors: w.errors,
    errorSamples: w.errorSamples,
    created: { pastes: w.pastes, replies: w.replies, chat: w.chatIds, held: w.held },
    chat,
  };
}

process.on('message', async (message) => {
  try {
    if (message.type === 'init') {
      init = message;
      agent = new http.Agent({ keepAlive: true, maxSockets: init.config.connections });
      process.send({ type: 'ready' });
    } else if (message.type === 'grow') {
      process.send({ type: 'grown', ...(await grow(message.count)) });
    } else if (message.type === 'start') {
      window = newWindow();
      process.send({ type: 'started' });
    } else if (message.type === 'stop') {
      process.send({ type: 'stopped', ...(await stop()) });
    } else if (message.type === 'end') {
      for (const m of running) {
        m.active = false;
        m.socket?.terminate();
      }
      for (const v of visitors) v.active = false;
      agent.destroy();
      process.send({ type: 'ended' });
      setTimeout(() => process.exit(0), 100);
    }
  } catch (error) {
    process.send({ type: 'failed', message: error.stack ?? String(error) });
  }
});
