/**
 * The expiry queue: a delayed job per expiring paste removes it for good once it has expired, and a
 * repeatable sweep removes any a delayed job missed (the in-process queue forgets its timers on restart).
 */
export const EXPIRY_QUEUE = 'expiry';
export const EXPIRE_PASTE_JOB = 'expire-paste';
export const EXPIRY_SWEEP_JOB = 'sweep-expired';
/** The id of the sweep's schedule (a BullMQ job scheduler with Redis). */
export const EXPIRY_SWEEP_SCHEDULE = 'expiry-sweep';
/** How often the sweep runs, once across every process that runs jobs. */
export const EXPIRY_SWEEP_INTERVAL_MS = 5 * 60 * 1000;

export interface ExpirePasteJob {
  pasteId: number;
}

/**
 * One job per paste and expiry time: a paste whose expiry is changed gets a job of its own, and the old
 * one finds nothing to do.
 */
export function expireJobId(pasteId: number, expiresAt: Date): string {
  return `expire-${pasteId}-${expiresAt.getTime()}`;
}
