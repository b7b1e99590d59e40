import type { WorkerOptions } from 'bullmq';

/** How long shutdown waits for running jobs before it gives up on them. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5000;

export interface QueueModuleOptions {
  /** AppConfig.redisUrl: BullMQ on this Redis when set, the in-process driver otherwise. */
  redisUrl: string | undefined;
  /**
   * Whether this process runs the processors (default true); false for an API instance with separate workers.
   */
  runProcessors?: boolean;
  /** Every queue of the app (the features name theirs: src/queues.ts); tests use queues of their own. */
  queues: readonly string[];
  shutdownTimeoutMs?: number;
  /** BullMQ worker tuning (tests shorten the lock so a dead worker's job is picked up quickly). */
  worker?: Pick<WorkerOptions, 'concurrency' | 'lockDuration' | 'stalledInterval'>;
}

export type ResolvedQueueOptions = Required<Omit<QueueModuleOptions, 'redisUrl' | 'worker'>> &
  Pick<QueueModuleOptions, 'redisUrl' | 'worker'>;

export const QUEUE_OPTIONS = Symbol('QUEUE_OPTIONS');

export function resolveQueueOptions(options: QueueModuleOptions): ResolvedQueueOptions {
  return {
    redisUrl: options.redisUrl,
    runProcessors: options.runProcessors ?? true,
    queues: options.queues,
    shutdownTimeoutMs: options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
    worker: options.worker,
  };
}

/** The worker tuning JOB_LOCK_SECONDS sets: the job lock and the stalled-job check period. */
export function jobLock(config: { jobLockMs: number }): QueueModuleOptions['worker'] {
  return { lockDuration: config.jobLockMs, stalledInterval: config.jobLockMs };
}

/** Adding to a queue nobody registered is a programming error, reported the same way by both adapters. */
export function assertKnownQueue(queue: string, queues: readonly string[]): void {
  if (!queues.includes(queue)) {
    throw new Error(`Unknown queue "${queue}" (queues: ${queues.join(', ')})`);
  }
}
