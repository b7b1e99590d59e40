// What the scenarios share: a fresh app in its own folder, its members, a workload that can run while
// something else happens, and the checks of the database afterwards as problems and a summary.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerUsers } from '../../harness/user.mjs';
import { App, removeDir, scratchDir } from '../lib/app.mjs';
import { counterMismatches, lostWrites, notificationProblems } from '../lib/checks.mjs';
import { Ledger, runWorkload } from '../lib/workload.mjs';

export const log = (line) => console.log(`  ${line}`);

/** A new app (embedded PostgreSQL) in a folder of its own; `cleanup()` stops it and removes the folder. */
export async function freshApp(name, env = {}) {
  const scratch = scratchDir(name);
  const app = new App({ name: 'api', dataDir: join(scratch, 'data'), env });
  await app.start();
  log(`${name}: Termpaste up at ${app.url} in ${(app.startedInMs / 1000).toFixed(1)} s (logs in ${scratch})`);
  return {
    app,
    scratch,
    async cleanup(keep) {
      await app.stop().catch(() => undefined);
      if (keep || process.env.RELIABILITY_KEEP === '1') log(`kept ${scratch}`);
      else removeDir(scratch);
    },
  };
}

export async function members(app, count) {
  const started = Date.now();
  const list = await registerUsers(app.url, () => app.outboxMails(), count);
  log(`${count} members registered and verified in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return list;
}

/** Starts the members' load; `stop()` ends it and resolves when every member's last request answered. */
export function startLoad(list, { seed = 1, pause = 0 } = {}) {
  const ledger = new Ledger();
  const controller = new AbortController();
  const running = runWorkload(list, { ledger, signal: controller.signal, seed, pause });
  return {
    ledger,
    async stop() {
      controller.abort();
      await running;
      return ledger;
    },
  };
}

/** Lost writes, counters and notifications, read from the database through `sql` (a pg pool). */
export async function verify(sql, ledger) {
  const lost = await lostWrites(sql, ledger);
  const counters = await counterMismatches(sql);
  const notifications = await notificationProblems(sql, ledger);
  return {
    problems: [...lost, ...counters, ...notifications.problems],
    lost: lost.length,
    facts: `${ledger.writes} writes acknowledged, lost ${lost.length}, counters ${counters.length === 0 ? 'equal their recounts' : `WRONG (${counters.length})`}, notifications due ${notifications.due}${notifications.problems.length ? ' WRONG' : ' all there once'}`,
  };
}

/** Polls `probe` every `intervalMs` until it is truthy; the milliseconds it took, or undefined on timeout. */
export async function within(timeoutMs, probe, intervalMs = 100) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await probe().catch(() => false)) return Date.now() - started;
    await sleep(intervalMs);
  }
  return undefined;
}

export const serverErrorProblems = (ledger, allowed = () => false) =>
  ledger.serverErrors
    .filter((line) => !allowed(line))
    .slice(0, 10)
    .map((line) => `5xx: ${line}`);
