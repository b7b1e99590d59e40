import { DiscoveryService } from '@nestjs/core';

/**
 * The queue port: work that may wait (mail, notification fan-out) is put here. Two adapters implement
 * it: BullMQ on Redis when REDIS_URL is set, an in-process driver otherwise. Processors are safe to run
 * twice (delivery is at least once).
 */
export interface JobOptions {
  /**
   * A job with the same id is not added twice (idempotent enqueue) while it waits, runs, or is still
   * kept after finishing: with BullMQ, among the last 1000 completed jobs of the queue for at most 24 h,
   * or the last 5000 failed ones for at most 7 days (BULL_JOB_DEFAULTS' retention); in-process, among the
   * last 6000 finished since the process started. Once trimmed, the same id is a new job again, so
   * this guards against a retried request, not against a replay days later: a processor whose effect
   * must happen once also dedupes on its own (as the notifications do, by source). Not a number and
   * without `:` (BullMQ's rule, enforced by both adapters).
   */
  jobId?: string;
  attempts?: number;
  /** First retry delay; later retries back off exponentially. */
  backoffMs?: number;
}

/** Applied when a job does not say otherwise, by both adapters. */
export const DEFAULT_JOB_OPTIONS = { attempts: 5, backoffMs: 2000 } as const;

export abstract class QueuePort {
  abstract add<T>(queue: string, name: string, data: T, options?: JobOptions): Promise<void>;

  /**
   * Whether a job outlives this process once `add` resolved: BullMQ's are in Redis. The in-process
   * driver's are not, so the outbox (infra/outbox) keeps a job's row until `settled` says it ran.
   */
  abstract readonly durable: boolean;

  /**
   * Resolves once the job added under `jobId` is settled here: true when it ran (completed, or failed for
   * good), false when it will not run in this process (dropped at shutdown, or never added). A durable
   * adapter's jobs are safe once added: true at once.
   */
  settled(_queue: string, _jobId: string): Promise<boolean> {
    return Promise.resolve(true);
  }
}

/** What a processor gets: `data` went through JSON on both adapters, so it holds no Date or class instance. */
export interface QueueJob<T = unknown> {
  id: string;
  name: string;
  data: T;
  /** Failed attempts before this one (0 on the first run). */
  attemptsMade: number;
}

/**
 * Runs the jobs of one queue: a provider of a feature module, marked with `@QueueProcessor(queue)`.
 * A thrown error fails the attempt (retried with backoff until `attempts` is used up). It may run twice
 * for one job (a worker that dies mid-job), so it must be idempotent.
 *
 * ```ts
 * @Injectable()
 * @QueueProcessor(MAIL_QUEUE)
 * export class MailProcessor implements QueueProcessor<MailMessage> {
 *   async process(job: QueueJob<MailMessage>): Promise<void> { … }
 * }
 * ```
 */
export interface QueueProcessor<T = unknown> {
  process(job: QueueJob<T>): Promise<void>;
}

/** Marks a provider as the processor of a queue (one per queue); the active adapter finds and runs it. */
export const QueueProcessor = DiscoveryService.createDecorator<string>();

/** BullMQ refuses these ids; the in-process driver refuses them too so code behaves the same in both. */
export function assertValidJobId(jobId: string | undefined): void {
  if (jobId === undefined) return;
  if (jobId === '' || String(parseInt(jobId, 10)) === jobId || jobId.includes(':')) {
    throw new Error(`Invalid job id "${jobId}": use a non-numeric string without ":"`);
  }
}

/**
 * The processors of `queues` among the app's providers, one per queue. A processor for a queue that is not
 * registered, or two for one queue, is a wiring mistake: it fails the start-up.
 */
export function findProcessors(
  discovery: DiscoveryService,
  queues: readonly string[],
): Map<string, QueueProcessor> {
  const found = new Map<string, QueueProcessor>();
  const owners = new Map<string, string>();
  for (const wrapper of discovery.getProviders({ metadataKey: QueueProcessor.KEY })) {
    const queue = discovery.getMetadataByDecorator(QueueProcessor, wrapper);
    const instance = wrapper.instance as QueueProcessor | undefined;
    if (!queue || !instance || found.get(queue) === instance) continue;
    if (typeof instance.process !== 'function') {
      throw new Error(`${wrapper.name} is marked @QueueProcessor('${queue}') but has no process(job) method`);
    }
    if (!queues.includes(queue)) {
      throw new Error(
        `${wrapper.name} processes queue "${queue}", which is not registered (queues: ${queues.join(', ')})`,
      );
    }
    if (found.has(queue)) {
      throw new Error(`Queue "${queue}" has two processors: ${owners.get(queue)} and ${wrapper.name}`);
    }
    found.set(queue, instance);
    owners.set(queue, String(wrapper.name));
  }
  return found;
}
