// `npm run bench`: Termpaste under load at 10,000 and 1,000,000 pastes, beside the two ceilings of this
// machine measured in the same run (bare Node `http`, and a NestJS+Express route, serving the same home
// payload). Prints one markdown table with each goal and ✔/✖, and writes it with the raw figures under
// bench/results/. See bench/README.md.
//
//   npm run bench                       both sizes, 10 s a route (first run seeds 1 M pastes: minutes)
//   npm run bench -- --smoke            10,000 pastes, 0.5 s a route; fails only on errors (CI)
//   npm run bench -- --sizes 10000 --duration 5 --sockets 200 --skip-build
//   npm run bench -- --seed-only        seed (or reuse) the databases, measure nothing
//   npm run bench -- --members          the members ramp alone, at 1 M pastes (bench/members.mjs)
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { nx } from '../harness/nx.mjs';
import { root } from '../harness/paths.mjs';
import { prepareDatabase } from './database.mjs';
import { measureEdge } from './edge.mjs';
import { renderTable, evaluate } from './report.mjs';
import {
  chatSockets,
  connections,
  duration,
  ensureDir,
  label,
  log,
  only,
  options,
  resultsDir,
  sizes,
  smoke,
  wanted,
} from './settings.mjs';
import { closeSize, measureCeiling, measureRead, measureWrites, openSize } from './sizes.mjs';
import { measureMembers, membersProblems, membersTable } from './members.mjs';

/** What makes the run fail: errors, non-2xx answers, lost pastes, undelivered chat messages; never speed. */
function errors(report) {
  const problems = [];
  for (const run of report.runs) {
    for (const [name, r] of Object.entries({
      ...run.routes,
      ...Object.fromEntries(Object.entries(run.ceilings).map(([k, v]) => [`ceiling ${k}`, v])),
    })) {
      // A route measured twice: each run counts (the one not kept too).
      for (const one of r.runs ?? [r]) {
        if (!one.requests) problems.push(`${label(run.pastes)} ${name}: no answer within the run`);
        if (one.errors || one.non2xx)
          problems.push(`${label(run.pastes)} ${name}: ${one.errors} errors, ${one.non2xx} non-2xx answers`);
      }
    }
    problems.push(...membersProblems(run));
    for (const [name, r] of Object.entries(run.edge ?? {}))
      if (r.nginx?.errors || r.nginx?.non2xx)
        problems.push(
          `${label(run.pastes)} ${name} through nginx: ${r.nginx.errors} errors, ${r.nginx.non2xx} non-2xx`,
        );
    if (run.routes.createPaste?.lost)
      problems.push(
        `${label(run.pastes)} createPaste: ${run.routes.createPaste.lost} acknowledged pastes lost`,
      );
    for (const kind of ['chat', 'chatRaw']) {
      const c = run[kind];
      if (!c) continue; // left out (--only)
      if (c.failedPosts || c.delivered < c.expected)
        problems.push(
          `${label(run.pastes)} ${kind}: ${c.failedPosts} failed posts, ${c.delivered}/${c.expected} delivered`,
        );
    }
  }
  return problems;
}

const started = Date.now();
log(
  `Termpaste benchmark: ${sizes.map(label).join(' and ')} pastes, ${connections} connections, ${duration} s a route${smoke ? ' (smoke)' : ''}`,
);
if (!options['skip-build']) await nx(['run-many', '-t', 'build', '--output-style=static']);
// Secret scanning (bench/secret-scan.mjs): no database; `--only secretScan` measures it alone.
if (wanted('secretScan') && !options.members) {
  const scan = spawnSync(process.execPath, [join(root, 'bench/secret-scan.mjs')], { stdio: 'inherit' });
  if (scan.status !== 0) process.exit(scan.status ?? 1);
  if (only?.size === 1) process.exit(0);
}
if (options['seed-only']) {
  for (const pastes of sizes) await prepareDatabase(pastes);
  log('seeded; nothing measured (--seed-only)');
  process.exit(0);
}
const opened = [];
try {
  for (const pastes of sizes) opened.push(await openSize(pastes));
  // `--members`: the members ramp alone, at the largest size (bench/members.mjs).
  if (options.members) opened.at(-1).result.members = await measureMembers(opened.at(-1));
  else await measureAll();
} finally {
  for (const size of opened) await closeSize(size);
}
async function measureAll() {
  log('\n## reads: each route at every size in turn');
  for (const kind of ['http', 'nest']) for (const size of opened) await measureCeiling(size, kind);
  // With several sizes each route runs twice at each, in the order 10 k, 1 M, 1 M, 10 k, and keeps the
  // run with the lower p99 of each size: a burst of load from outside that hits one run does not decide
  // the ratio between the sizes.
  const rounds = opened.length > 1 ? [opened, [...opened].reverse()] : [opened];
  for (const [name] of opened[0].reads) {
    if (!wanted(name)) continue;
    for (const round of rounds) for (const size of round) await measureRead(size, name);
  }
  // A visitor's reads through nginx's page cache beside the app alone (bench/edge.mjs).
  if (wanted('edge')) for (const size of opened) await measureEdge(size);
  for (const [i, size] of opened.entries()) await measureWrites(size, i === 0);
  if (wanted('members')) opened.at(-1).result.members = await measureMembers(opened.at(-1));
}
const runs = opened.map((size) => size.result);
const report = {
  date: new Date().toISOString(),
  smoke,
  duration,
  connections,
  chatSockets,
  machine: machine(),
  runs,
};
report.goals = evaluate(report);
const table = (options.members ? '' : renderTable(report)) + membersTable(report);
console.log('\n' + table);
ensureDir(resultsDir);
const stamp = report.date.replace(/[:.]/g, '-');
writeFileSync(
  join(resultsDir, `${smoke ? 'smoke' : 'bench'}-${stamp}.json`),
  JSON.stringify(report, null, 2),
);
writeFileSync(join(resultsDir, `${smoke ? 'smoke' : 'bench'}-latest.md`), table + '\n');
log(`\nwritten to bench/results/ in ${((Date.now() - started) / 1000).toFixed(0)} s`);

const problems = errors(report);
if (problems.length) {
  console.error('\nbenchmark errors:\n' + problems.join('\n'));
  process.exit(1);
}

function machine() {
  return { node: process.version, cpus: os.cpus().length, memoryGb: Math.round(os.totalmem() / 2 ** 30) };
}
