/** The relay's tuning; tests shorten or lengthen the poll. */
export interface OutboxOptions {
  /** How often the relay looks for rows nobody woke it for (left by a crash, or by another process). */
  pollMs: number;
  /** Rows read (and, with BullMQ, locked and sent) per pass. */
  batchSize: number;
  /** How long a pass waits for the queue (Redis) to take its jobs before it lets go of its rows' locks. */
  addWaitMs: number;
  /** In-process queue: jobs handed over and not yet run, at most (the rest wait in the outbox). */
  inFlightMax: number;
  /** At shutdown, how long the in-process relay waits for the jobs it handed over, to delete their rows. */
  shutdownWaitMs: number;
}

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  pollMs: 1000,
  batchSize: 200,
  addWaitMs: 5000,
  inFlightMax: 1000,
  shutdownWaitMs: 2000,
};

export const OUTBOX_OPTIONS = Symbol('OUTBOX_OPTIONS');
