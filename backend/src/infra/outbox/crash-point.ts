/**
 * Fault injection for test/outbox-crash.spec.ts only: `TERMPASTE_TEST_CRASH=<point>` SIGKILLs the
 * process at that point (`committed`: write and outbox row committed, relay not woken; `relayed`: the
 * queue took a job, its row not yet deleted). Read once; unset, a point costs nothing.
 */
export type CrashPoint = 'committed' | 'relayed';

export const CRASH_VARIABLE = 'TERMPASTE_TEST_CRASH';

const crashAt = process.env[CRASH_VARIABLE];

export function crashPoint(point: CrashPoint): void {
  if (crashAt === point) process.kill(process.pid, 'SIGKILL');
}
