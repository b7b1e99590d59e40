/** The tokens queue: its one job deletes the tokens revoked long ago, repeated every TOKENS_SWEEP_INTERVAL_MS. */
export const TOKENS_QUEUE = 'tokens';
export const TOKENS_SWEEP_JOB = 'sweep-revoked';
/** The id of the sweep's schedule (a BullMQ job scheduler with Redis). */
export const TOKENS_SWEEP_SCHEDULE = 'tokens-sweep';
/** How often the sweep runs, once across every process that runs jobs. */
export const TOKENS_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
