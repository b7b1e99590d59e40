import type { WorkerOptions } from 'bullmq';
import { MAIL_QUEUE } from '../mail/mail.service.js';
import { NOTIFICATIONS_QUEUE } from '../../modules/notifications/notifications.queue.js';
import { UPLOADS_QUEUE } from '../../modules/uploads/uploads.queue.js';
import { TOKENS_QUEUE } from '../../modules/auth/tokens/tokens.queue.js';
import { EXPIRY_QUEUE } from '../../modules/threads/expiry.queue.js';
import { TRASH_QUEUE } from '../../modules/threads/trash.queue.js';
import { ACCOUNT_QUEUE } from '../../modules/account/account.queue.js';
import { SUSPENSIONS_QUEUE } from '../../modules/moderation/suspensions.queue.js';
import { AKISMET_QUEUE } from '../../modules/screening/akismet.queue.js';

/** Every queue of the app, one per feature that owns a processor (BullMQ registers each at start-up). */
export const QUEUE_NAMES: readonly string[] = [
  MAIL_QUEUE,
  NOTIFICATIONS_QUEUE,
  UPLOADS_QUEUE,
  TOKENS_QUEUE,
  EXPIRY_QUEUE,
  TRASH_QUEUE,
  ACCOUNT_QUEUE,
  SUSPENSIONS_QUEUE,
  AKISMET_QUEUE,
];

/** How long shutdown waits for running jobs before it gives up on them. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5000;

export interface QueueModuleOptions {
  /** AppConfig.redisUrl: BullMQ on this Redis when set, the in-process driver otherwise. */
  redisUrl: string | undefined;
  /**
   * Whether this process runs the processors (default true); false for an API instance with separate workers.
   */
  runProcessors?: boolean;
  /** Defaults to QUEUE_NAMES; tests use queues of their own. */
  queues?: readonly string[];
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
    queues: options.queues ?? QUEUE_NAMES,
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
