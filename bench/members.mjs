// `npm run bench -- --members`: how many signed-in members one box holds. A ramp of simulated members
// (members-load.mjs, a child process), each with its own session and its live socket open, reading and
// writing with a think time of seconds, visitors beside them; each step held and measured: p99 of page
// reads and of writes, errors, anything lost (every created paste, reply and chat message looked up or
// counted as delivered), and where the time went (CPU of each process, event-loop delay, the pool, RSS).
// See bench/README.md ("Members").
import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { root } from '../harness/paths.mjs';
import { rssMb } from './app.mjs';
import { SEARCHES } from './corpus.mjs';
import { label, log, options, smoke } from './settings.mjs';
import { seedMembers, cpuNow, scrape, samplePool } from './members-probes.mjs';
import { describeStep, MEMBERS_GOAL } from './members-report.mjs';
import { placeProcesses } from './members-cpus.mjs';

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
    cpus: { loadCpus: options['load-cpus'], serverCpus: options['server-cpus'] },
    deliveryWaitMs: smoke ? 5000 : 10_000,
    mix,
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
  const placed = placeProcesses({ loadPid: child.pid, appPid: app.pid, ...config.cpus });
  log(`  ${placed}`);
  const result = { config, goal: MEMBERS_GOAL, steps: [], held: 0, placed };
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

export { describeStep, MEMBERS_GOAL, membersCell, membersProblems, membersTable } from './members-report.mjs';
