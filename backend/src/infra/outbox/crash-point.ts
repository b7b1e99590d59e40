/**
 * Fault injection for test/outbox-crash.spec.ts: `TERMPASTE_TEST_CRASH=committed|relayed` SIGKILLs the
 * process at that point. Read once; unset, a point costs nothing.
 */
export type CrashPoint = 'committed' | 'relayed';

export const CRASH_VARIABLE = 'TERMPASTE_TEST_CRASH';

const crashAt = process.env[CRASH_VARIABLE];

export function crashPoint(point: CrashPoint): void {
  if (crashAt === point) process.kill(process.pid, 'SIGKILL');
}
