// `npm run test:reliability`: Termpaste under load, crashes and hostile input, on the real stack (the
// build's backend/dist, the embedded PostgreSQL; PostgreSQL, Redis and a worker from Debian's packages for
// the production-mode scenario), on loopback, each scenario bounded in time. One summary line per
// scenario; exits 1 when any scenario found a problem. See reliability/README.md.
//
//   npm run test:reliability                          every scenario (builds first)
//   npm run test:reliability -- --only load,hostile --duration 20 --members 50 --skip-build
import { parseArgs } from 'node:util';
import { nx } from '../harness/nx.mjs';
import { processes, stopStarting } from '../harness/proc.mjs';
import { crashApi, crashDatabase } from './scenarios/crashes.mjs';
import { hostileInput } from './scenarios/hostile.mjs';
import { load } from './scenarios/load.mjs';
import { redisRestart } from './scenarios/redis-restart.mjs';

const { values: options } = parseArgs({
  options: {
    only: { type: 'string' },
    duration: { type: 'string', default: '20' },
    members: { type: 'string', default: '200' },
    'skip-build': { type: 'boolean', default: false },
  },
});

const SCENARIOS = {
  load: () => load({ members: Number(options.members), seconds: Number(options.duration) }),
  'crash-api': crashApi,
  'crash-db': crashDatabase,
  'redis-restart': redisRestart,
  hostile: hostileInput,
};
const chosen = options.only ? options.only.split(',') : Object.keys(SCENARIOS);
for (const name of chosen) {
  if (!SCENARIOS[name]) {
    console.error(`unknown scenario ${name}; known: ${Object.keys(SCENARIOS).join(', ')}`);
    process.exit(2);
  }
}

async function stopAll() {
  stopStarting();
  await Promise.all([...processes].map((proc) => proc.stop('SIGKILL', 5_000).catch(() => undefined)));
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => stopAll().finally(() => process.exit(130)));
}

if (!options['skip-build']) {
  await nx(['run-many', '-t', 'build', '--projects=@termpaste/backend', '--output-style=static']);
}

const results = [];
for (const name of chosen) {
  const started = Date.now();
  console.log(`\n--- ${name}`);
  let result;
  try {
    result = await SCENARIOS[name]();
  } catch (error) {
    result = { summary: 'did not finish', problems: [error.stack ?? String(error)] };
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  results.push({ name, seconds, ...result });
  for (const problem of result.problems) console.log(`  ✖ ${problem}`);
  console.log(`--- ${name}: ${result.problems.length === 0 ? 'held' : 'FAILED'} in ${seconds} s`);
}
await stopAll();

console.log('\nreliability summary');
for (const r of results) {
  console.log(`  ${r.problems.length === 0 ? '✔' : '✖'} ${r.name.padEnd(13)} ${r.summary} (${r.seconds} s)`);
}
const failed = results.filter((r) => r.problems.length > 0);
process.exit(failed.length > 0 ? 1 : 0);
