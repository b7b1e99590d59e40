// The run's checks in order: each passes, fails (and every later one is not run), or is over the deadline.
import { CheckFailed } from '../../harness/wait.mjs';
import { DEADLINE_MS, log, STARTED } from './context.mjs';

const results = [];
let failed = false;

export async function check(name, run) {
  if (failed) {
    results.push({ name, status: 'not run' });
    return;
  }
  const started = Date.now();
  log(`… ${name}`);
  try {
    if (Date.now() - STARTED > DEADLINE_MS) throw new CheckFailed(`over the ${DEADLINE_MS / 1000}s deadline`);
    const detail = await run();
    results.push({ name, status: 'PASS', ms: Date.now() - started, detail });
    log(`PASS ${name}${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    failed = true;
    results.push({ name, status: 'FAIL', ms: Date.now() - started, detail: error.message });
    log(`FAIL ${name}: ${error instanceof CheckFailed ? error.message : (error.stack ?? error.message)}`);
  }
}

export const anyFailed = () => failed;

/** One line a check, its time, and a failed one's reason. */
export function printResults() {
  for (const result of results) {
    const time = result.ms === undefined ? '' : ` (${(result.ms / 1000).toFixed(1)}s)`;
    console.log(`  ${result.status.padEnd(7)} ${result.name}${time}`);
    if (result.status === 'FAIL') console.log(`          ${result.detail}`);
  }
}
