// The benchmark's goals (issue "Fast at a million pastes") and its one markdown table: every figure
// beside its goal, ✔ met, ✖ missed, – not measured in this run.
import { edgeGoal, edgeRows } from './edge.mjs';
import { LONG_TASK_MS } from './large-paste.mjs';
import { lighthouseGoal, lighthouseTableRows } from './lighthouse.mjs';
import { membersCell, MEMBERS_GOAL } from './members.mjs';

const fmt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : '–');
const ms = (n) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(1) : Math.round(n)} ms` : '–');
const ratio = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–');
const sizeLabel = (pastes) => (pastes >= 1_000_000 ? `${pastes / 1_000_000} M` : `${pastes / 1000} k`);

/** The read routes in table order, with their ratio goal to the NestJS+Express ceiling, if any. */
export const READ_ROUTES = [
  ['home', 'home, first page', 0.8],
  ['homeDeep', 'home, 100 pages deep (cursor)'],
  ['detailVisitor', 'paste detail, 200 replies, visitor', 0.5],
  ['detailMember', 'paste detail, 200 replies, member (own votes)', 0.3],
  ['searchCommon', 'search, common word, page 1'],
  ['searchCommon2', 'search, common word, page 2'],
  ['searchRare', 'search, rare word, page 1'],
  ['searchRare2', 'search, rare word, page 2'],
  ['searchPhrase', 'search, phrase, page 1'],
  ['searchPhrase2', 'search, phrase, page 2'],
  ['searchTag', 'search, `tag:` (common tag)'],
  ['searchTagRare', 'search, `tag:` (rare tag)'],
  ['searchLang', 'search, `lang:python`'],
  ['searchUser', 'search, `user:` (busiest member)'],
  ['searchIdent', 'search, identifier inside `this.…(`'],
  ['searchNegated', 'search, `docker -failed`'],
  ['searchInTitle', 'search, `in:title nginx`'],
  ['searchDates', 'search, word with `after:` and `before:`'],
  ['searchFeatured', 'search, `is:featured`'],
  ['searchSortTop', 'search, `kernel sort:top`'],
  ['searchCombined', 'search, `tag:docker lang:typescript "docker container"`'],
  ['featured', 'featured (hardest posts)'],
  ['profile', 'a profile'],
  ['members', 'members directory (member)'],
  ['vote', 'vote (member)'],
];
const SEARCH_P99_MS = 50;
const SCALE_RATIO = 1.2;
const WRITES_PER_S = 1000;
const CHAT_RATIO = 2;
const RSS_IDLE_MB = 150;
const RSS_LOAD_MB = 300;
const JS_GZIP_KB = 200;

const mark = (ok) => (ok === null ? '–' : ok ? '✔' : '✖');
const all = (checks) =>
  checks.some((c) => c === false) ? false : checks.some((c) => c === true) ? true : null;

/** A route's figures in a run, or null: not in this run, or left out (`--only`): its checks are null. */
const route = (run, key) => run?.routes[key] ?? null;

/** Each goal with its verdict: true met, false missed, null not measured in this run. */
export function evaluate(report) {
  const small = report.runs.find((r) => r.pastes < 1_000_000) ?? null;
  const large = report.runs.find((r) => r.pastes >= 1_000_000) ?? null;
  const goals = [];
  for (const [key, , minRatio] of READ_ROUTES) {
    const checks = [];
    if (minRatio) {
      for (const run of report.runs)
        checks.push(route(run, key) ? run.routes[key].rps / run.ceilings.nest.rps >= minRatio : null);
    }
    if (key.startsWith('search'))
      checks.push(route(large, key) ? large.routes[key].p99 < SEARCH_P99_MS : null);
    checks.push(
      route(small, key) && route(large, key)
        ? large.routes[key].p99 / small.routes[key].p99 <= SCALE_RATIO
        : null,
    );
    goals.push({ key, ok: all(checks) });
  }
  goals.push(edgeGoal(report));
  const create = report.runs.map((r) => r.routes.createPaste);
  goals.push({
    key: 'createPaste',
    ok: all(create.map((c) => (c ? c.rps >= WRITES_PER_S && c.lost === 0 && !c.non2xx : null))),
  });
  goals.push({
    key: 'chat',
    ok: all(
      report.runs.map((r) =>
        r.chat ? r.chat.p99 / r.chatRaw.p99 <= CHAT_RATIO && r.chat.delivered === r.chat.expected : null,
      ),
    ),
  });
  goals.push({
    key: 'rss',
    ok: all(report.runs.flatMap((r) => [r.rssIdleMb < RSS_IDLE_MB, r.rssLoadMb < RSS_LOAD_MB])),
  });
  const withMembers = report.runs.findLast((r) => r.members);
  goals.push({ key: 'members', ok: withMembers ? withMembers.members.held >= MEMBERS_GOAL : null });
  const js = report.runs[0]?.js;
  goals.push({ key: 'js', ok: js && !js.skipped ? js.gzipKb < JS_GZIP_KB : null });
  const largePaste = report.runs[0]?.largePaste;
  goals.push({
    key: 'largePaste',
    ok:
      largePaste && !largePaste.skipped
        ? largePaste.python.longestTaskMs < LONG_TASK_MS && largePaste.ansi.longestTaskMs < LONG_TASK_MS
        : null,
  });
  goals.push(lighthouseGoal(report));
  return goals;
}

function routeCell(run, key) {
  const r = run?.routes[key];
  if (!r) return '–';
  const unit = key === 'vote' ? 'votes/s' : 'req/s';
  const parts = [`${fmt(r.rps)} ${unit}`, `p50 ${ms(r.p50)}`, `p99 ${ms(r.p99)}`];
  if (run.ceilings.nest) parts.push(ratio(r.rps / run.ceilings.nest.rps));
  if (r.errors || r.non2xx) parts.push(`**${r.errors} errors, ${r.non2xx} non-2xx**`);
  return parts.join(' · ');
}

export function renderTable(report) {
  const small = report.runs.find((r) => r.pastes < 1_000_000);
  const large = report.runs.find((r) => r.pastes >= 1_000_000);
  const verdict = Object.fromEntries(report.goals.map((g) => [g.key, g.ok]));
  const rows = [];
  const row = (measure, a, b, goal, ok) => rows.push(`| ${measure} | ${a} | ${b} | ${goal} | ${mark(ok)} |`);
  const both = (f) => [small ? f(small) : '–', large ? f(large) : '–'];

  row(
    'ceiling: bare Node `http`, same home payload',
    ...both((r) => `${fmt(r.ceilings.http?.rps)} req/s`),
    'machine ceiling',
    null,
  );
  row(
    'ceiling: NestJS+Express static route, same payload',
    ...both((r) => `${fmt(r.ceilings.nest?.rps)} req/s · 1×`),
    'stack ceiling (÷ below)',
    null,
  );
  for (const [key, name, minRatio] of READ_ROUTES) {
    const goal = [];
    if (minRatio) goal.push(`≥ ${minRatio}× ceiling`);
    if (key.startsWith('search')) goal.push(`p99 < ${SEARCH_P99_MS} ms at 1 M`);
    const scale =
      route(small, key) && route(large, key)
        ? ` (now ${ratio(large.routes[key].p99 / small.routes[key].p99)})`
        : '';
    goal.push(`p99 1 M ÷ 10 k ≤ ${SCALE_RATIO}${scale}`);
    row(name, ...both((r) => routeCell(r, key)), goal.join('; '), verdict[key]);
  }
  edgeRows(row, both, verdict.edge);
  row(
    'create paste, sustained, every acknowledged paste checked',
    ...both((r) => {
      const c = r.routes.createPaste;
      if (!c) return '–';
      return `${fmt(c.rps)} writes/s · p99 ${ms(c.p99)} · ${fmt(c.acknowledged)} acknowledged, ${fmt(c.lost)} lost${c.non2xx ? ` · **${c.non2xx} non-2xx**` : ''}`;
    }),
    `≥ ${fmt(WRITES_PER_S)} writes/s, nothing lost`,
    verdict.createPaste,
  );
  row(
    `chat delivery to ${fmt(report.chatSockets)} sockets, 10 messages/s`,
    ...both((r) =>
      !r.chat
        ? '–'
        : `p50 ${ms(r.chat.p50)} · p99 ${ms(r.chat.p99)} (raw \`ws\` p99 ${ms(r.chatRaw.p99)}) · ${ratio(r.chat.p99 / r.chatRaw.p99)} · ${fmt(r.chat.delivered)}/${fmt(r.chat.expected)} delivered`,
    ),
    `p99 ≤ ${CHAT_RATIO}× raw \`ws\` broadcast`,
    verdict.chat,
  );
  row(
    'API RSS idle / under load',
    ...both((r) => `${fmt(r.rssIdleMb)} MB / ${fmt(r.rssLoadMb)} MB`),
    `< ${RSS_IDLE_MB} MB / < ${RSS_LOAD_MB} MB`,
    verdict.rss,
  );
  row(
    'members held, each signed in with its live socket, reading, voting, replying, chatting (bench/members.mjs)',
    ...both((r) => membersCell(r)),
    `≥ ${fmt(MEMBERS_GOAL)} with reads p99 < 100 ms, writes p99 < 250 ms, no error, nothing lost`,
    verdict.members,
  );
  const js = report.runs[0]?.js;
  row(
    'shell + home JS on first visit, gzip',
    js
      ? js.skipped
        ? `not measured: ${js.skipped}`
        : `${js.gzipKb} KB gzip (${js.rawKb} KB raw, ${js.files} files, ${js.sentKb} KB sent)`
      : '–',
    '(same build)',
    `< ${JS_GZIP_KB} KB`,
    verdict.js,
  );
  const largePaste = report.runs[0]?.largePaste;
  const largeCell = (m) =>
    `first lines ${m.firstLinesMs} ms · highlighted ${m.highlightedMs} ms · longest task after ${m.longestTaskMs} ms · ${m.lineElements} line elements`;
  for (const [kind, name] of [
    ['python', 'a 20,000-line python paste in Chromium'],
    ['ansi', 'a 1 MiB terminal capture (14,000 coloured lines) in Chromium'],
  ])
    row(
      name,
      largePaste
        ? largePaste.skipped
          ? `not measured: ${largePaste.skipped}`
          : largeCell(largePaste[kind])
        : '–',
      '(same build)',
      `no main-thread task ≥ ${LONG_TASK_MS} ms once lines show`,
      verdict.largePaste,
    );
  lighthouseTableRows(report, row);
  const header = [
    `| measure | ${small ? `${sizeLabel(small.pastes)} pastes` : '–'} | ${large ? `${sizeLabel(large.pastes)} pastes` : '–'} | goal | |`,
    '|---|---|---|---|---|',
  ];
  const met = report.goals.filter((g) => g.ok === true).length;
  const missed = report.goals.filter((g) => g.ok === false).length;
  const caption = `${report.connections} connections, ${report.duration} s a route${report.smoke ? ' (smoke)' : ''}, ${report.date}: ${met} goals met, ${missed} missed, ${report.goals.length - met - missed} not measured.`;
  return [caption, '', ...header, ...rows].join('\n');
}
