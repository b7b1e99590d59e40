import { DiscoveryService } from '@nestjs/core';
import { CronExpressionParser } from 'cron-parser';
import { inSpan } from '../tracing/tracing.js';

/**
 * The queue port for work that may wait: BullMQ with REDIS_URL, else in-process. Delivery is at least once.
 */
export interface JobOptions {
  /**
   * A job with the same id is not added twice while it is kept (a guard against a retried request, not a
   * replay days later). Not a number and without `:`. docs/backend.md.
   */
  jobId?: string;
  attempts?: number;
  /** First retry delay; later retries back off exponentially. */
  backoffMs?: number;
  /**
   * Runs the job no sooner than this many ms from now (a paste's expiry): a delayed job of BullMQ, a
   * timer in-process (where it is lost with the process: pair it with a repeatable sweep).
   */
  delayMs?: number;
  /**
   * The trace the job continues (a W3C traceparent; null: none). Unset: the active span's, with tracing
   * on. The job runs in a span of that trace, and so does what it does (SQL, mail, live events).
   */
  traceparent?: string | null;
}

/** Applied when a job does not say otherwise, by both adapters. */
export const DEFAULT_JOB_OPTIONS = { attempts: 5, backoffMs: 2000 } as const;

/**
 * A job added every `everyMs` (the first run one interval after the start), or at each time of the cron
 * `pattern` (UTC), once per interval or time across processes.
 */
export interface RepeatableJob<T = unknown> {
  queue: string;
  /**
   * Names the schedule, unique per queue: each process registers the same id, and a process started again
   * takes up the same schedule (BullMQ keeps its timing in Redis). Not a number and without `:`.
   */
  id: string;
  name: string;
  data: T;
  /** The interval, in ms (a positive integer); or give `pattern`. */
  everyMs?: number;
  /** A cron pattern (five fields, or six with seconds), in UTC; or give `everyMs`. */
  pattern?: string;
  attempts?: number;
  backoffMs?: number;
}

/** The repeatable jobs, one per queue and id; a different job under a taken id fails the start-up. */
export class RepeatableJobs {
  private readonly jobs = new Map<string, RepeatableJob>();

  /** Registers `job`, after the adapter checked its queue is known; false when it already was. */
  add(job: RepeatableJob): boolean {
    if (job.id === '' || String(parseInt(job.id, 10)) === job.id || job.id.includes(':')) {
      throw new Error(`Invalid repeatable job id "${job.id}": use a non-numeric string without ":"`);
    }
    if ((job.everyMs === undefined) === (job.pattern === undefined)) {
      throw new Error(`Repeatable job ${job.queue}/${job.id}: give either everyMs or pattern`);
    }
    if (job.pattern !== undefined) nextCronTime(job.pattern, Date.now());
    else if (!Number.isSafeInteger(job.everyMs) || job.everyMs! <= 0) {
      throw new Error(
        `Repeatable job ${job.queue}/${job.id}: everyMs must be a positive integer, not ${job.everyMs}`,
      );
    }
    const key = `${job.queue}/${job.id}`;
    const known = this.jobs.get(key);
    // The data as the processor gets it (through JSON), kept from later changes by the caller.
    const data: unknown = job.data === undefined ? undefined : JSON.parse(JSON.stringify(job.data));
    const copy: RepeatableJob = { ...job, data };
    if (known) {
      if (JSON.stringify(known) === JSON.stringify(copy)) return false;
      throw new Error(`Repeatable job ${key} is registered twice, with different settings`);
    }
    this.jobs.set(key, copy);
    return true;
  }

  get all(): RepeatableJob[] {
    return [...this.jobs.values()];
  }
}

/** The first time of cron `pattern` (UTC) after `after` (ms since the epoch); throws on a bad pattern. */
export function nextCronTime(pattern: string, after: number): number {
  return CronExpressionParser.parse(pattern, { currentDate: new Date(after), tz: 'UTC' })
    .next()
    .getTime();
}

/** `every 600000 ms` or `at "0 3 * * *" (UTC)`, for the logs. */
export function repeatsWhen(job: RepeatableJob): string {
  return job.pattern === undefined ? `every ${job.everyMs} ms` : `at "${job.pattern}" (UTC)`;
}

export abstract class QueuePort {
  abstract add<T>(queue: string, name: string, data: T, options?: JobOptions): Promise<void>;

  /**
   * Whether a job outlives this process once `add` resolved: BullMQ's are in Redis. The in-process
   * driver's are not, so the outbox (infra/outbox) keeps a job's row until `settled` says it ran.
   */
  abstract readonly durable: boolean;

  /**
   * Resolves once job `jobId` is settled here: true when it ran, false when it will not run in this process.
   * A durable adapter's jobs are safe once added: true at once.
   */
  settled(_queue: string, _jobId: string): Promise<boolean> {
    return Promise.resolve(true);
  }

  /**
   * Adds `job` every `job.everyMs`, once per interval across processes. Register it in onModuleInit.
   * docs/backend.md.
   */
  abstract repeat<T>(job: RepeatableJob<T>): void;

  /** The repeatable jobs registered here, in the order they were. */
  abstract readonly repeatableJobs: readonly RepeatableJob[];
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
 * Runs an attempt of `job` in a span continuing the trace it carries (`traceparent`), else in a trace of
 * its own; just runs it with tracing off.
 */
export function inJobSpan(
  system: 'bullmq' | 'in-process',
  queue: string,
  job: QueueJob,
  traceparent: string | null,
  run: () => Promise<void>,
): Promise<void> {
  const attributes = {
    'messaging.system': system,
    'messaging.operation.type': 'process',
    'messaging.destination.name': queue,
    'messaging.message.id': job.id,
    'termpaste.job.name': job.name,
    'termpaste.job.attempt': job.attemptsMade + 1,
  };
  return inSpan(`process ${queue}/${job.name}`, { kind: 'consumer', parent: traceparent, attributes }, run);
}

/**
 * Runs the jobs of one queue: a feature module's provider marked `@QueueProcessor(queue)`. A thrown error
 * fails the attempt (retried with backoff until `attempts` runs out). A job may run twice (a worker dying
 * mid-job), so `process` must be idempotent.
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
