/**
 * The suspensions queue: a delayed job per timed ban or silence lifts it when it ends, and a repeatable
 * sweep lifts any a job missed (the in-process queue forgets its timers on restart).
 */
export const SUSPENSIONS_QUEUE = 'suspensions';
export const LIFT_SUSPENSION_JOB = 'lift';
export const SUSPENSIONS_SWEEP_JOB = 'sweep-ended';
/** The id of the sweep's schedule (a BullMQ job scheduler with Redis). */
export const SUSPENSIONS_SWEEP_SCHEDULE = 'suspensions-sweep';
/** How often the sweep runs, once across every process that runs jobs. */
export const SUSPENSIONS_SWEEP_INTERVAL_MS = 60 * 1000;

export type SuspensionKind = 'ban' | 'silence';

export interface LiftSuspensionJob {
  kind: SuspensionKind;
  userId: number;
  /** The end it was given (ISO): a ban or silence given other terms since is not this job's. */
  until: string;
}

/** One job per member, kind and end: new terms get a job of their own, and the old one finds nothing. */
export function liftJobId({ kind, userId, until }: LiftSuspensionJob): string {
  return `lift-${kind}-${userId}-${Date.parse(until)}`;
}
