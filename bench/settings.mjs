// `npm run bench`'s options (parsed once, at start), its sizes and folders, and the small helpers every
// part of the benchmark uses.
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { root } from '../harness/paths.mjs';

const USAGE = `npm run bench [-- options]
  --smoke              10,000 pastes, 0.5 s a route; fails only on errors (what CI runs)
  --sizes 10000,1000000  the seeded sizes to measure (default both; 1 M is seeded once, minutes)
  --duration S         seconds a route (default 10)
  --connections N      concurrent HTTP connections (default 64)
  --sockets N          chat sockets for the fan-out (default 1000)
  --only a,b           just these measures: route names as in the JSON, or chat, js, largePaste, lighthouse, secretScan
  --skip-build         use the builds on disk
  --seed-only          seed (or reuse) the databases, measure nothing
  --cpu-prof           the app writes a V8 CPU profile under bench/results/ as it stops
  --members            only the members ramp (default at 1 M pastes); bench/members.mjs has its options:
                       --members-start/-step/-max N, --members-hold S, --think S, --visitors R, --mix JSON|file,
                       --load-cpus LIST|none, --server-cpus LIST (taskset CPU lists)
  --help               this text`;
const parsed = (() => {
  try {
    return parseArgs({ options: optionSpec() });
  } catch (error) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
})();
if (parsed.values.help) {
  console.log(USAGE);
  process.exit(0);
}
export const options = parsed.values;
function optionSpec() {
  return {
    help: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string', default: '64' },
    sockets: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    'seed-only': { type: 'boolean', default: false },
    only: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    members: { type: 'boolean', default: false },
    ...Object.fromEntries(
      [
        'members-start',
        'members-step',
        'members-max',
        'members-hold',
        'members-settle',
        'members-connections',
      ]
        .concat(['think', 'visitors', 'mix', 'load-cpus', 'server-cpus'])
        .map((name) => [name, { type: 'string' }]),
    ),
  };
}
/** `--only createPaste,vote`: measure just these (route names as in the JSON; also `chat`, `js`, `largePaste`, `lighthouse`, `secretScan`). */
export const only = options.only ? new Set(options.only.split(',')) : null;
export const wanted = (name) => !only || only.has(name);
export const smoke = options.smoke;
export const sizes = (options.sizes ?? (smoke ? '10000' : options.members ? '1000000' : '10000,1000000'))
  .split(',')
  .map(Number);
export const duration = Number(options.duration ?? (smoke ? 0.5 : 10));
export const connections = Number(options.connections);
export const chatSockets = Number(options.sockets ?? 1000);
export const CHAT_RATE = 10;
export const MEMBERS = 100;
/** Bumped when seed.mjs changes what it writes: older seeded templates are then dropped. */
export const SEED_VERSION = 2;
export const dataRoot = join(root, 'bench', '.data');
export const resultsDir = join(root, 'bench', 'results');

export const log = (line) => console.log(line);
export const label = (pastes) =>
  pastes >= 1_000_000 ? `${pastes / 1_000_000}M` : pastes >= 1000 ? `${pastes / 1000}k` : String(pastes);

/** A folder PostgreSQL (the `postgres` user when we are root) can enter. */
export function ensureDir(dir) {
  mkdirSync(dir, { recursive: true });
  for (let d = dir; d.startsWith(root) && d !== root; d = dirname(d)) chmodSync(d, 0o755);
}
