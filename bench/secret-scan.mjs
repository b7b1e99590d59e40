// Secret scanning: how long the backend's scanner (backend/dist/common/secret-scanner.js) takes on a
// 1 MiB paste, the largest PASTE_MAX_BYTES allows by default. Goal: well under 100 ms (p99 < 50 ms).
// Run by `npm run bench` (or alone: `npm run bench -- --only secretScan`, or `node bench/secret-scan.mjs`
// after a build). Fails only on errors; prints p50/p99 beside the goal.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MIB = 1_048_576;
const WARM_UP = 20;
const RUNS = 200;
const GOAL_MS = 50;

const { scanSecrets } = await import(pathToFileURL(join(root, 'backend/dist/common/secret-scanner.js')).href);

// Ordinary code and prose (this repository's own), to 1 MiB, with one AWS access key ID in the middle.
const pages = ['accounts', 'members', 'moderation', 'operations', 'security'].map(
  (page) => `docs/${page}.md`,
);
const prose = ['README.md', ...pages];
const sources = [...prose, 'backend/src/modules/pastes/paste-intake.ts', 'frontends/ui/src/theme.css']
  .map((file) => readFileSync(join(root, file), 'utf8'))
  .join('\n');
let text = '';
while (text.length < MIB) text += sources;
const key = ['AKIA', 'QYLPMN5H', 'HHFPZAM2'].join('');
text = `${text.slice(0, MIB / 2)}\nexport AWS_ACCESS_KEY_ID=${key}\n${text.slice(MIB / 2)}`.slice(0, MIB);

const findings = await scanSecrets(text);
if (!findings.some((finding) => finding.rule === 'aws:AWSAccessKeyID')) {
  throw new Error(`the AWS key was not found: ${JSON.stringify(findings)}`);
}
for (let run = 0; run < WARM_UP; run += 1) await scanSecrets(text);
const times = [];
for (let run = 0; run < RUNS; run += 1) {
  const start = performance.now();
  await scanSecrets(text);
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
const p50 = at(0.5);
const p99 = at(0.99);
console.log(
  `secret scan of a 1 MiB paste (${RUNS} runs, ${findings.length} finding(s)): p50 ${p50.toFixed(1)} ms, ` +
    `p99 ${p99.toFixed(1)} ms, max ${times.at(-1).toFixed(1)} ms; goal p99 < ${GOAL_MS} ms ` +
    `(well under 100 ms) ${p99 < GOAL_MS ? '✔' : '✖'}`,
);
