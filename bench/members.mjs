// `npm run bench -- --members`: how many signed-in members one box holds. A ramp of simulated members
// (members-load.mjs, a child process), each with its own session and its live socket open, reading and
// writing with a think time of seconds, visitors beside them; each step held and measured: p99 of page
// reads and of writes, errors, anything lost (every created paste, reply and chat message looked up or
// counted as delivered), and where the time went (CPU of each process, event-loop delay, the pool, RSS).
// See bench/README.md ("Members").
import { createHmac, randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { root } from '../harness/paths.mjs';
import { rssMb } from './app.mjs';
import { SEARCHES } from './corpus.mjs';
import { label, log, options, smoke } from './settings.mjs';

/** What members do, as shares of their actions (each action follows a think time). `--mix` overrides. */
export const DEFAULT_MIX = {
  home: 0.26,
  paste: 0.42,
  profile: 0.12,
  search: 0.06,
  vote: 0.08,
  reply: 0.04,
  post: 0.01,
  chat: 0.002,
  reload: 0.01,
};
/** `--smoke`: every kind of action a few times in 3 s (it fails only on errors and losses). */
const SMOKE_MIX = {
  home: 2,
  paste: 2,
  profile: 1,
  search: 1,
  vote: 1,
  reply: 1,
  post: 1,
  chat: 1,
  reload: 1,
};
/** The goals of a step: page reads' p99, writes' p99 (ms); no error, nothing lost. */
export const READ_P99_MS = 100;
export const WRITE_P99_MS = 250;
export const MEMBERS_GOAL = 10_000;

const SESSION_DAYS = 30;
const TICKS = 100; // clock ticks a second in /proc/<pid>/stat (USER_HZ)

/** The ramp's settings, from the command line (`--members-max` …) or their defaults. */
export function membersConfig() {
  const number = (name, fallback) => (options[name] === undefined ? fallback : Number(options[name]));
  let mix = smoke ? SMOKE_MIX : DEFAULT_MIX;
  if (options.mix) {
    const text = existsSync(options.mix) ? readFileSync(options.mix, 'utf8') : options.mix;
    mix = { ...mix, ...JSON.parse(text) };
  }
  const total = Object.values(mix).reduce((a, b) => a + b, 0);
  mix = Object.fromEntries(Object.entries(mix).map(([k, v]) => [k, v / total]));
  return {
    start: number('members-start', smoke ? 20 : number('members-step', 2000)),
    step: number('members-step', smoke ? 20 : 2000),
    max: number('members-max', smoke ? 20 : 16_000),
    hold: number('members-hold', smoke ? 3 : 20),
    settle: number('members-settle', smoke ? 1 : 5),
    think: number('think', smoke ? 0.5 : 10),
    visitors: number('visitors', 0.5),
    connections: number('members-connections', 256),
    connectParallel: 100,
    deliveryWaitMs: smoke ? 5000 : 10_000,
    mix,
  };
}

/** express-session's signed cookie for `sid` (cookie-signature: HMAC-SHA256, base64 without padding). */
export function sessionCookie(sid, secret) {
  const signature = createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '');
  return `termpaste.sid=${encodeURIComponent(`s:${sid}.${signature}`)}`;
}

function sessionSecret(database) {
  if (database.env.SESSION_SECRET) return database.env.SESSION_SECRET;
  if (process.env.SESSION_SECRET) return process.env.SESSION_SECRET;
  return readFileSync(join(database.env.DATA_DIR, 'session-secret'), 'utf8').trim();
}

/**
 * `count` members, each signed in with a session of their own, made by SQL (no password is hashed: a
 * sign-in costs the API an argon2 hash, which is not what this measures): accounts a few days old and
 * verified, and a row in `sessions` as the app's session store writes it.
 */
async function seedMembers(sql, database, count) {
  const secret = sessionSecret(database);
  const { rows } = await sql.query(
    `INSERT INTO users (username, email, password_hash, created_at, email_verified_at)
     SELECT 'mbr_' || n, 'mbr_' || n || '@members.bench', (SELECT password_hash FROM users ORDER BY id LIMIT 1),
       now() - interval '3 days', now() - interval '3 days'
     FROM generate_series(1, $1::int) n
     RETURNING id`,
    [count],
  );
  const ids = rows.map((r) => r.id).sort((a, b) => a - b);
  const expires = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  const sids = ids.map(() => randomBytes(18).toString('base64url'));
  const data = (id) =>
    JSON.stringify({
      cookie: {
        originalMaxAge: SESSION_DAYS * 86_400_000,
        expires: expires.toISOString(),
        secure: false,
        httpOnly: true,
        path: '/',
        sameSite: 'lax',
      },
      passport: { user: id },
    });
  await sql.query(
    `INSERT INTO sessions (sid, user_id, data, expires_at)
     SELECT sid, user_id, data::jsonb, $4 FROM unnest($1::text[], $2::int[], $3::text[]) AS s(sid, user_id, data)`,
    [sids, ids, ids.map(data), expires],
  );
  return ids.map((id, i) => ({ id, cookie: sessionCookie(sids[i], secret) }));
}

/** utime + stime of a process, in seconds (0 once it is gone). */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** The processes under `pid` (the embedded PostgreSQL and its backends, under the app). */
function descendants(pid) {
  const parent = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const under = [];
  const walk = (p) => {
    for (const [child, ppid] of parent) {
      if (ppid !== p) continue;
      under.push(child);
      walk(child);
    }
  };
  walk(pid);
  return under;
}

/** CPU seconds of the app, of PostgreSQL (the app's children, embedded), and of the load generator. */
function cpuNow(appPid, loadPid) {
  const pg = descendants(appPid);
  return {
    at: Date.now(),
    app: cpuSeconds(appPid),
    postgres: pg.reduce((n, pid) => n + cpuSeconds(pid), 0),
    postgresSeen: pg.length,
    load: cpuSeconds(loadPid),
    machine: machineCpu(),
  };
}

/** The machine's busy CPU seconds (all cores, every process: the other tenants too). */
function machineCpu() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const idle = ticks[3] + ticks[4];
  return (ticks.reduce((a, b) => a + b, 0) - idle) / TICKS;
}

/** The app's Prometheus figures we read (METRICS_LISTEN): event-loop delay since the last scrape. */
async function scrape(metricsUrl) {
  if (!metricsUrl) return {};
  try {
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    const value = (name) => Number(new RegExp(`^${name} ([\\d.e+-]+)$`, 'm').exec(text)?.[1]);
    // Page cache reads that waited for a load (misses) and those served from memory (hits).
    const cache = (result) =>
      [
        ...text.matchAll(
          new RegExp(`^termpaste_page_cache_requests_total\\{[^}]*result="${result}"[^}]*\\} (\\d+)`, 'gm'),
        ),
      ]
        .map((m) => Number(m[1]))
        .reduce((a, b) => a + b, 0);
    return {
      cacheHits: cache('hit'),
      cacheMisses: cache('miss'),
      loopP99Ms: +(value('nodejs_eventloop_lag_p99_seconds') * 1000).toFixed(1),
      loopMaxMs: +(value('nodejs_eventloop_lag_max_seconds') * 1000).toFixed(1),
      heapMb: +(value('nodejs_heap_size_used_bytes') / 2 ** 20).toFixed(0),
    };
  } catch {
    return {};
  }
}

/**
 * The app's pool as PostgreSQL sees it, sampled: its connections running a statement. A step whose
 * samples often find every one of them busy had requests waiting for a connection.
 */
function samplePool(sql, poolSize) {
  const samples = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const { rows } = await sql.query(
          `SELECT count(*) FILTER (WHERE state = 'active')::int AS active, count(*)::int AS open
           FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
             AND backend_type = 'client backend'`,
        );
        samples.push(rows[0]);
      } catch {
        // the sampler is best effort
      }
      await sleep(250);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    const active = samples.map((s) => s.active);
    return {
      poolSize,
      samples: samples.length,
      activeMean: active.length ? +(active.reduce((a, b) => a + b, 0) / active.length).toFixed(1) : null,
      activeMax: active.length ? Math.max(...active) : null,
      saturated: active.length
        ? +(active.filter((n) => n >= poolSize).length / active.length).toFixed(2)
        : null,
    };
  };
}

/** Asks the load generator something and waits for its answer of `answer` type. */
function ask(child, message, answer) {
  return new Promise((resolve, reject) => {
    const onMessage = (m) => {
      if (m.type === answer) {
        child.off('message', onMessage);
        resolve(m);
      } else if (m.type === 'failed') {
        child.off('message', onMessage);
        reject(new Error(`members load generator: ${m.message}`));
      }
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** What a step missed, in words (empty: held). */
function missed(step) {
  const why = [];
  if (step.connect.connectFailures)
    why.push(
      `${step.connect.connectFailures} sockets not opened (${step.connect.failureSamples.join('; ')})`,
    );
  if (step.errors) why.push(`${step.errors} errors (${step.errorSamples.join('; ')})`);
  if (step.lost.pastes || step.lost.replies || step.lost.chatRows || step.chat.lost)
    why.push(
      `lost: ${step.lost.pastes} pastes, ${step.lost.replies} replies, ${step.lost.chatRows} chat rows, ${step.chat.lost} chat deliveries`,
    );
  if (!(step.reads.p99 < READ_P99_MS)) why.push(`page reads p99 ${step.reads.p99} ms ≥ ${READ_P99_MS}`);
  if (step.writes.count && !(step.writes.p99 < WRITE_P99_MS))
    why.push(`writes p99 ${step.writes.p99} ms ≥ ${WRITE_P99_MS}`);
  return why;
}

/** Looks every acknowledged paste, reply and chat message up in the database. */
async function lostRows(sql, created) {
  const count = async (table, ids) =>
    ids.length
      ? (await sql.query(`SELECT count(*)::int AS n FROM ${table} WHERE id = ANY($1::int[])`, [ids])).rows[0]
          .n
      : 0;
  return {
    pastes: created.pastes.length - (await count('threads', created.pastes)),
    replies: created.replies.length - (await count('replies', created.replies)),
    chatRows: created.chat.length - (await count('chat_messages', created.chat)),
  };
}

/** Where the time went in a step: each process's share of a core, and per member. */
function costs(before, after, members, step) {
  const seconds = (after.at - before.at) / 1000;
  const share = (key) => +((after[key] - before[key]) / seconds).toFixed(2);
  const cpu = {
    app: share('app'),
    postgres: share('postgres'),
    load: share('load'),
    machine: share('machine'),
  };
  cpu.others = +Math.max(0, cpu.machine - cpu.app - cpu.postgres - cpu.load).toFixed(2);
  // CPU of the server side (app + PostgreSQL) per member-minute of the mix, in ms.
  const perMemberMinuteMs = +(((cpu.app + cpu.postgres) * 60 * 1000) / members).toFixed(1);
  return {
    seconds: +seconds.toFixed(1),
    cpu,
    perMemberMinuteMs,
    perRequestMs: +(((cpu.app + cpu.postgres) * 1000) / step.requestsPerSecond).toFixed(2),
  };
}

/**
 * The ramp on one opened size (sizes.mjs openSize): members added `step` at a time up to `max`, each step
 * held `hold` s after `settle` s; stops at the first step that misses a goal (the limit is the step
 * before it).
 */
export async function measureMembers(size) {
  const config = membersConfig();
  const { app, sql, database, pastes } = size;
  log(
    `\n## members at ${label(pastes)} pastes: ${config.start.toLocaleString('en')} to ${config.max.toLocaleString('en')} by ${config.step.toLocaleString('en')}, ${config.hold} s a step, think ${config.think} s`,
  );
  const seeded = Date.now();
  const members = await seedMembers(sql, database, config.max);
  log(`  ${members.length.toLocaleString('en')} members signed in by SQL in ${Date.now() - seeded} ms`);
  const { rows: profileRows } = await sql.query('SELECT id FROM users ORDER BY reply_count DESC LIMIT 500');
  const homeIds = size.homeIds;
  // The popular pastes: the most replied to, most read first.
  const { rows: popular } = await sql.query(
    'SELECT id FROM threads ORDER BY reply_count DESC, id DESC LIMIT 2000',
  );
  // Replies go to pastes open to them (a few seeded pastes are locked).
  const { rows: open } = await sql.query(
    'SELECT id FROM threads WHERE NOT is_locked AND id = ANY($1::int[])',
    [[...homeIds, ...popular.slice(0, 200).map((r) => r.id)]],
  );
  const words = [
    ...new Set(
      Object.values(SEARCHES)
        .filter((q) => /^[a-z]+$/.test(q))
        .concat(['docker', 'kernel', 'nginx', 'postgres', 'python', 'rust', 'systemd', 'ssh']),
    ),
  ];
  const child = fork(join(root, 'bench/members-load.mjs'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const result = { config, goal: MEMBERS_GOAL, steps: [], held: 0 };
  const { DATABASE_POOL_SIZE_DEFAULT } = await import(
    pathToFileURL(join(root, 'backend/dist/config/database.js')).href
  );
  const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? DATABASE_POOL_SIZE_DEFAULT);
  try {
    await ask(
      child,
      {
        type: 'init',
        url: app.url,
        wsUrl: app.url.replace('http', 'ws') + '/ws/chat',
        members,
        config: { ...config, pastes },
        pasteIds: popular.map((r) => r.id),
        homeIds,
        replyIds: open.map((r) => r.id),
        profileIds: profileRows.map((r) => r.id),
        words,
      },
      'ready',
    );
    result.rssBeforeMb = +rssMb(app.pid).toFixed(1);
    const rampStarted = Date.now();
    for (let count = config.start; count <= config.max; count += config.step) {
      const connect = await ask(child, { type: 'grow', count }, 'grown');
      await sleep(config.settle * 1000);
      // Resets the event-loop histogram: what follows is this step's.
      const metricsBefore = await scrape(app.metricsUrl);
      const pool = samplePool(sql, poolSize);
      const before = cpuNow(app.pid, child.pid);
      let rssMax = 0;
      const rssTimer = setInterval(() => (rssMax = Math.max(rssMax, rssMb(app.pid))), 500);
      await ask(child, { type: 'start' }, 'started');
      await sleep(config.hold * 1000);
      const after = cpuNow(app.pid, child.pid);
      const loop = await scrape(app.metricsUrl);
      loop.cacheMisses -= metricsBefore.cacheMisses;
      loop.cacheHits -= metricsBefore.cacheHits;
      clearInterval(rssTimer);
      const stats = await ask(child, { type: 'stop' }, 'stopped');
      const step = {
        members: count,
        connect,
        ...stats,
        lost: await lostRows(sql, stats.created),
        where: { ...costs(before, after, count, stats), loop, pool: await pool() },
        rssMb: +Math.max(rssMax, rssMb(app.pid)).toFixed(1),
      };
      step.where.rssPerMemberKb = +(((step.rssMb - result.rssBeforeMb) * 1024) / count).toFixed(0);
      delete step.created;
      step.missed = missed(step);
      step.ok = step.missed.length === 0;
      result.steps.push(step);
      log(describeStep(step));
      if (!step.ok) break;
      result.held = count;
      if (app.exited) throw new Error(`Termpaste exited during the members ramp; see ${app.logFile}`);
    }
    result.seconds = Math.round((Date.now() - rampStarted) / 1000);
  } finally {
    await ask(child, { type: 'end' }, 'ended').catch(() => undefined);
    child.kill();
  }
  const last = result.steps.findLast((s) => s.ok);
  const first = result.steps.find((s) => !s.ok);
  result.limit = first
    ? `${first.members.toLocaleString('en')} missed: ${first.missed.join('; ')}`
    : `held every step up to ${config.max.toLocaleString('en')}`;
  if (last) {
    result.memberCost = {
      rssKb: last.where.rssPerMemberKb,
      cpuMsPerMemberMinute: last.where.perMemberMinuteMs,
    };
  }
  log(`  members held: ${result.held.toLocaleString('en')} (${result.limit})`);
  return result;
}

export function describeStep(s) {
  const w = s.where;
  return [
    `  ${s.members.toLocaleString('en')} members (${s.sockets} sockets, ${s.visitors} visitors): ${s.requestsPerSecond} req/s,`,
    `reads p50 ${s.reads.p50} p99 ${s.reads.p99} ms, writes p50 ${s.writes.p50} p99 ${s.writes.p99} ms (${s.writes.count}),`,
    `chat ${s.chat.delivered}/${s.chat.expected} p99 ${s.chat.p99} ms, errors ${s.errors};`,
    `CPU app ${w.cpu.app} pg ${w.cpu.postgres} load ${w.cpu.load} others ${w.cpu.others},`,
    `loop p99 ${w.loop.loopP99Ms} ms, page cache ${w.loop.cacheMisses} misses / ${w.loop.cacheHits} hits, pool busy ${w.pool.activeMean}/${w.pool.poolSize} (full ${Math.round((w.pool.saturated ?? 0) * 100)} %), RSS ${s.rssMb} MB (${w.rssPerMemberKb} KB/member)`,
    s.ok ? '✔' : `✖ ${s.missed.join('; ')}`,
  ].join(' ');
}

/** The run's problems that fail it (errors, losses), never speed: for `--smoke`. */
export function membersProblems(run) {
  const problems = [];
  for (const s of run.members?.steps ?? []) {
    if (s.errors || s.connect.connectFailures)
      problems.push(
        `members ${s.members}: ${s.errors} errors, ${s.connect.connectFailures} sockets refused (${[...s.errorSamples, ...s.connect.failureSamples].join('; ')})`,
      );
    if (s.lost.pastes || s.lost.replies || s.lost.chatRows || s.chat.lost)
      problems.push(`members ${s.members}: lost ${JSON.stringify(s.lost)}, ${s.chat.lost} chat deliveries`);
    if (!s.reads.count) problems.push(`members ${s.members}: no page read answered`);
  }
  return problems;
}

/** The members row of the bench table: the figure, its goal, and what stopped the ramp. */
export function membersCell(run) {
  const m = run?.members;
  if (!m) return '–';
  const last = m.steps.findLast((s) => s.ok);
  const detail = last
    ? ` · at it: reads p99 ${last.reads.p99} ms, writes p99 ${last.writes.p99} ms, CPU app ${last.where.cpu.app} / pg ${last.where.cpu.postgres} / load ${last.where.cpu.load}, ${last.where.rssPerMemberKb} KB and ${last.where.perMemberMinuteMs} ms CPU a member-minute`
    : '';
  return `**${m.held.toLocaleString('en')} members**${detail} · ${m.limit}`;
}

/** The ramp's steps as a markdown table (after the bench table), and what stopped it. */
export function membersTable(report) {
  const run = report.runs.findLast((r) => r.members);
  if (!run) return '';
  const m = run.members;
  const c = m.config;
  const mix = Object.entries(c.mix)
    .map(([k, v]) => `${k} ${(v * 100).toFixed(1)} %`)
    .join(', ');
  const lines = [
    '',
    '',
    `Members at ${label(run.pastes)} pastes: think ${c.think} s (uniform ½–1½×), ${c.visitors} visitors a member, mix ${mix}; ${c.hold} s a step after ${c.settle} s; ${c.connections} HTTP connections, a socket each. Held: **${m.held.toLocaleString('en')}** (goal ${MEMBERS_GOAL.toLocaleString('en')}); ${m.limit}.`,
    '',
    '| members | req/s | reads p50 / p99 | writes p50 / p99 | chat delivered, p99 | errors, lost | CPU app / pg / load / others (cores) | loop p99 | pool busy (full) | API RSS (per member) | server CPU a member-minute | |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of m.steps) {
    const w = s.where;
    const lost = s.lost.pastes + s.lost.replies + s.lost.chatRows + s.chat.lost;
    lines.push(
      `| ${s.members.toLocaleString('en')} | ${s.requestsPerSecond.toLocaleString('en')} | ${s.reads.p50} / ${s.reads.p99} ms | ${s.writes.p50 ?? '–'} / ${s.writes.p99 ?? '–'} ms | ${s.chat.delivered.toLocaleString('en')}/${s.chat.expected.toLocaleString('en')}, ${s.chat.p99 ?? '–'} ms | ${s.errors + s.connect.connectFailures}, ${lost} | ${w.cpu.app} / ${w.cpu.postgres} / ${w.cpu.load} / ${w.cpu.others} | ${w.loop.loopP99Ms ?? '–'} ms | ${w.pool.activeMean}/${w.pool.poolSize} (${Math.round((w.pool.saturated ?? 0) * 100)} %) | ${Math.round(s.rssMb)} MB (${w.rssPerMemberKb} KB) | ${w.perMemberMinuteMs} ms | ${s.ok ? '✔' : '✖'} |`,
    );
  }
  return lines.join('\n');
}
