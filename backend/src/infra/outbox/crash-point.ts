/**
 * Fault injection for the crash tests (test/outbox-crash.spec.ts), and nothing else: with
 * `TERMPASTE_TEST_CRASH=<point>` in its environment the process kills itself (SIGKILL, as a power cut or
 * the OOM killer would) when it reaches that point. Read once at start-up; unset, a point costs nothing.
 *
 * - `committed`: a write and its outbox row committed, the relay not yet woken;
 * - `relayed`: the queue took a job (BullMQ: it is in Redis; in-process: it ran), its row not yet deleted.
 */
export type CrashPoint = 'committed' | 'relayed';

export const CRASH_VARIABLE = 'TERMPASTE_TEST_CRASH';

const crashAt = process.env[CRASH_VARIABLE];

export function crashPoint(point: CrashPoint): void {
  if (crashAt === point) process.kill(process.pid, 'SIGKILL');
}
