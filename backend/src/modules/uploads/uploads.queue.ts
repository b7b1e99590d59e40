/**
 * The uploads queue: the sweep of unclaimed uploads (UploadsSweeper) is its one job, added by a
 * repeatable job (QueuePort.repeat) every UPLOADS_SWEEP_INTERVAL_MS.
 */
export const UPLOADS_QUEUE = 'uploads';

export const UPLOADS_JOBS = {
  /** Deletes the unclaimed uploads past their grace period. */
  sweep: 'sweep',
} as const;

/** The id of the sweep's schedule (a BullMQ job scheduler with Redis). */
export const UPLOADS_SWEEP_SCHEDULE = 'uploads-sweep';

/** How often the sweep runs, once across every process that runs jobs. */
export const UPLOADS_SWEEP_INTERVAL_MS = 10 * 60 * 1000;
