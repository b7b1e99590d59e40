// The member ramp's report: a step's line, the smoke's problems, the bench table's cell and the ramp's table.
import { label } from './settings.mjs';

export const MEMBERS_GOAL = 10_000;
export function describeStep(s) {
  const w = s.where;
  return [
    `  ${s.members.toLocaleString('en')} members (${s.sockets} sockets, ${s.visitors} visitors): ${s.requestsPerSecond} req/s,`,
    `reads p50 ${s.reads.p50} p99 ${s.reads.p99} ms, writes p50 ${s.writes.p50} p99 ${s.writes.p99} ms (${s.writes.count}),`,
    `chat ${s.chat.delivered}/${s.chat.expected} p99 ${s.chat.p99} ms, errors ${s.errors};`,
    `CPU app ${w.cpu.app} pg ${w.cpu.postgres} load ${w.cpu.load} others ${w.cpu.others},`,
    `loop p99 ${w.loop.loopP99Ms} ms, page cache ${w.loop.cacheMisses} misses / ${w.loop.cacheHits} hits, pool busy ${w.pool.activeMean}/${w.pool.poolSize} (full ${Math.round((w.pool.saturated ?? 0) * 100)} %), RSS ${s.rssMb} MB (${w.rssPerMemberKb} KB/member)`,
    s.ok ? '✔' : `✖ ${s.missed.join('; ')}`,
    postgresSpent(w.pool),
  ].join(' ');
}

/** What PostgreSQL's active statements were and waited on, as shares of the pool sampler's sightings. */
function postgresSpent(pool) {
  if (!pool.statements?.length) return '';
  const shares = (list) => list.map((x) => `${Math.round(x.share * 100)} % ${x.what}`).join('; ');
  return `\n    PostgreSQL active: ${shares(pool.statements)}\n    waiting on: ${shares(pool.waits)}`;
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
