/**
 * The queue port: work that may wait (mail, notification fan-out) is put here. Two adapters implement
 * it: BullMQ on Redis when REDIS_URL is set, an in-process driver otherwise. Processors are safe to run
 * twice (delivery is at least once).
 */
export interface JobOptions {
  /** A job with the same id is not added twice (idempotent enqueue). */
  jobId?: string;
  attempts?: number;
  /** First retry delay; later retries back off exponentially. */
  backoffMs?: number;
}

export abstract class QueuePort {
  abstract add<T>(queue: string, name: string, data: T, options?: JobOptions): Promise<void>;
}
