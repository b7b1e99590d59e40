import { randomUUID } from 'node:crypto';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { settlesWithin } from '../../common/settles-within.js';
import { Metrics, type QueueDepth } from '../metrics/metrics.js';
import { traceparent } from '../tracing/tracing.js';
import { depthReading, QUEUE_JOBS_FAMILY, recordJob } from './job-metrics.js';
import { assertKnownQueue, QUEUE_OPTIONS, type ResolvedQueueOptions } from './queue.options.js';
import {
  assertValidJobId,
  DEFAULT_JOB_OPTIONS,
  findProcessors,
  inJobSpan,
  type JobOptions,
  type QueueProcessor,
  QueuePort,
  type RepeatableJob,
  RepeatableJobs,
  nextCronTime,
  repeatsWhen,
} from './queue.port.js';

/** Finished job ids remembered for the jobId dedupe, as many as BullMQ keeps (1000 done + 5000 failed). */
const FINISHED_IDS_KEPT = 6000;

interface PendingJob {
  queue: string;
  id: string;
  name: string;
  /** The data as JSON, parsed afresh for each attempt (as BullMQ reads it back from Redis). */
  json: string | undefined;
  attempts: number;
  backoffMs: number;
  attemptsMade: number;
  /** When its first run is due (epoch ms; a delayed job's is in the future). */
  runAt: number;
  /** The trace it continues (JobOptions.traceparent). */
  traceparent: string | null;
}

/**
 * The first time at or after `now` that is `slot` plus a whole number of intervals, past `slot`: the next
 * run of a repeatable job, slots missed meanwhile (a busy event loop) skipped, as BullMQ does.
 */
function nextSlot(slot: number, everyMs: number, now: number): number {
  const next = slot + everyMs;
  return next >= now ? next : next + Math.ceil((now - next) / everyMs) * everyMs;
}

/** The longest delay a Node.js timer takes (about 24.8 days); a longer wait is several timers in turn. */
const TIMER_MAX_MS = 2 ** 31 - 1;

/** BullMQ's exponential backoff: the first retry after `backoffMs`, then twice as long each time. */
function retryDelay(backoffMs: number, attemptsMade: number): number {
  return Math.round(2 ** (attemptsMade - 1) * backoffMs);
}

/**
 * The queue without REDIS_URL: jobs run here after `add` returns, with BullMQ's rules. Nothing survives a
 * restart, but outbox jobs keep their rows until `settled`.
 */
@Injectable()
export class InProcessQueue extends QueuePort implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /** Jobs live in this process only. */
  readonly durable = false;
  private readonly logger = new Logger('Queue');
  private processors = new Map<string, QueueProcessor>();
  /** Jobs added while the app starts: they run once every processor is known. */
  private held: PendingJob[] | undefined = [];
  private stopped = false;
  /** `queue/id` of the jobs waiting or running. */
  private readonly active = new Set<string>();
  /** `queue/id` of the last finished jobs, oldest first, each with whether it ran (see `settled`). */
  private readonly finished = new Map<string, boolean>();
  /** Who waits for a job to settle, by `queue/id`. */
  private readonly waiters = new Map<string, Array<(ran: boolean) => void>>();
  /** Cancels the timer of each job waiting to run (first run or retry), by `queue/id`. */
  private readonly timers = new Map<string, () => void>();
  private readonly running = new Set<Promise<void>>();
  private readonly repeatable = new RepeatableJobs();
  /** Cancels the timer of each repeatable job's next run, by `queue/id`. */
  private readonly repeatTimers = new Map<string, () => void>();
  /** The `queue/id` of the job each repeatable job (by `queue/id`) added last. */
  private readonly lastRepeated = new Map<string, string>();
  /** The jobs waiting for their timer (first run or retry), by `queue/id`, and those running (metrics). */
  private readonly scheduled = new Map<string, PendingJob>();
  private readonly runningJobs = new Set<PendingJob>();
  /** Jobs given up since the start, by queue: what BullMQ would keep as failed. */
  private readonly failedJobs = new Map<string, number>();

  constructor(
    @Inject(QUEUE_OPTIONS) private readonly options: ResolvedQueueOptions,
    private readonly discovery: DiscoveryService,
    @Optional() private readonly metrics?: Metrics,
  ) {
    super();
    metrics?.onScrape(QUEUE_JOBS_FAMILY, () => depthReading(this.depth()));
  }

  /** Each queue's jobs in this process, by state. */
  depth(): Map<string, QueueDepth> {
    const depths = new Map<string, QueueDepth>(
      this.options.queues.map((queue) => [
        queue,
        { waiting: 0, active: 0, delayed: 0, failed: this.failedJobs.get(queue) ?? 0 },
      ]),
    );
    const now = Date.now();
    for (const job of [...(this.held ?? []), ...this.scheduled.values()]) {
      const depth = depths.get(job.queue);
      if (depth) depth[job.runAt > now ? 'delayed' : 'waiting']++;
    }
    for (const job of this.runningJobs) {
      const depth = depths.get(job.queue);
      if (depth) depth.active++;
    }
    return depths;
  }

  onApplicationBootstrap(): void {
    this.processors = findProcessors(this.discovery, this.options.queues);
    const held = this.held ?? [];
    this.held = undefined;
    for (const job of held) this.schedule(job, job.runAt - Date.now());
    for (const job of this.repeatable.all) this.startRepeating(job);
  }

  get repeatableJobs(): RepeatableJob[] {
    return this.repeatable.all;
  }

  repeat<T>(job: RepeatableJob<T>): void {
    assertKnownQueue(job.queue, this.options.queues);
    if (!this.repeatable.add(job)) return;
    // Before the start, onApplicationBootstrap starts it; after the shutdown, nothing runs any more.
    if (this.held === undefined && !this.stopped) this.startRepeating(job);
  }

  async add<T>(queue: string, name: string, data: T, options: JobOptions = {}): Promise<void> {
    assertKnownQueue(queue, this.options.queues);
    assertValidJobId(options.jobId);
    const id = options.jobId ?? randomUUID();
    const key = `${queue}/${id}`;
    if (this.active.has(key) || this.finished.has(key)) return;
    if (this.stopped) {
      this.logger.warn(`Job ${queue}/${name} (${id}) dropped: the app is shutting down`);
      return;
    }
    const job: PendingJob = {
      queue,
      id,
      name,
      json: JSON.stringify(data),
      attempts: Math.max(1, options.attempts ?? DEFAULT_JOB_OPTIONS.attempts),
      backoffMs: options.backoffMs ?? DEFAULT_JOB_OPTIONS.backoffMs,
      attemptsMade: 0,
      runAt: Date.now() + Math.max(0, options.delayMs ?? 0),
      traceparent: options.traceparent === undefined ? traceparent() : options.traceparent,
    };
    this.active.add(key);
    if (this.held) this.held.push(job);
    else this.schedule(job, job.runAt - Date.now());
  }

  /**
   * True once the job of `jobId` ran here (completed, or failed after all its attempts); false when it
   * will not run in this process: dropped at shutdown, cut short by it, or never added.
   */
  override settled(queue: string, jobId: string): Promise<boolean> {
    const key = `${queue}/${jobId}`;
    const finished = this.finished.get(key);
    if (finished !== undefined) return Promise.resolve(finished);
    if (!this.active.has(key)) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiting = this.waiters.get(key);
      if (waiting) waiting.push(resolve);
      else this.waiters.set(key, [resolve]);
    });
  }

  /** Drops the waiting jobs and waits (bounded) for the running ones, while the database is still open. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const cancel of this.repeatTimers.values()) cancel();
    this.repeatTimers.clear();
    const dropped = this.timers.size + (this.held?.length ?? 0);
    for (const cancel of this.timers.values()) cancel();
    for (const key of this.timers.keys()) this.settle(key, false);
    for (const job of this.held ?? []) this.settle(`${job.queue}/${job.id}`, false);
    this.timers.clear();
    this.held = undefined;
    if (dropped > 0) {
      this.logger.warn(`${dropped} waiting job(s) dropped at shutdown (the in-process queue keeps nothing)`);
    }
    if (this.running.size === 0) return;
    this.logger.log(`Waiting for ${this.running.size} running job(s) to finish`);
    if (!(await settlesWithin(Promise.all(this.running), this.options.shutdownTimeoutMs))) {
      this.logger.warn(
        `${this.running.size} job(s) still running after ${this.options.shutdownTimeoutMs} ms: not waiting longer`,
      );
    }
  }

  private schedule(job: PendingJob, delayMs: number): void {
    const key = `${job.queue}/${job.id}`;
    this.scheduled.set(key, job);
    const start = (): void => {
      this.timers.delete(key);
      this.scheduled.delete(key);
      const run = this.run(job);
      this.running.add(run);
      void run.then(() => this.running.delete(run));
    };
    if (delayMs <= 0) {
      const handle = setImmediate(start);
      this.timers.set(key, () => clearImmediate(handle));
    } else if (delayMs > TIMER_MAX_MS) {
      const handle = setTimeout(() => this.schedule(job, delayMs - TIMER_MAX_MS), TIMER_MAX_MS);
      handle.unref();
      this.timers.set(key, () => clearTimeout(handle));
    } else {
      const handle = setTimeout(start, delayMs);
      // A delayed job alone does not keep the process alive (retries are short and keep it).
      if (job.attemptsMade === 0) handle.unref();
      this.timers.set(key, () => clearTimeout(handle));
    }
  }

  /** Adds `job` one interval from now and every interval after that (or at its cron times), until the shutdown. */
  private startRepeating(job: RepeatableJob): void {
    const key = `${job.queue}/${job.id}`;
    const next = (slot: number, now: number) =>
      job.pattern === undefined ? nextSlot(slot, job.everyMs!, now) : nextCronTime(job.pattern, now);
    const wait = (slot: number): void => {
      const delay = slot - Date.now();
      const handle = setTimeout(
        () => {
          // A cron time may be further away than one timer waits.
          if (delay > TIMER_MAX_MS) return wait(slot);
          this.addRepeated(key, job, slot);
          wait(next(slot, Date.now()));
        },
        Math.min(Math.max(0, delay), TIMER_MAX_MS),
      );
      // Like the jobs' own timers: the schedule alone does not keep the process alive.
      handle.unref();
      this.repeatTimers.set(key, () => clearTimeout(handle));
    };
    const now = Date.now();
    wait(job.pattern === undefined ? now + job.everyMs! : nextCronTime(job.pattern, now));
    this.logger.log(`Job ${job.queue}/${job.name} (${job.id}) repeats ${repeatsWhen(job)}`);
  }

  private addRepeated(key: string, job: RepeatableJob, slot: number): void {
    const last = this.lastRepeated.get(key);
    if (last !== undefined && this.active.has(last)) {
      this.logger.warn(
        `Job ${job.queue}/${job.name} (${job.id}) not added this time: the previous one has not finished`,
      );
      return;
    }
    const jobId = `${job.id}-${slot}`;
    this.lastRepeated.set(key, `${job.queue}/${jobId}`);
    void this.add(job.queue, job.name, job.data, {
      jobId,
      ...(job.attempts === undefined ? {} : { attempts: job.attempts }),
      ...(job.backoffMs === undefined ? {} : { backoffMs: job.backoffMs }),
    }).catch((error: unknown) =>
      this.logger.error(`Job ${job.queue}/${job.name} (${job.id}) not added: ${String(error)}`),
    );
  }

  /** One attempt; never rejects (a failing job must not crash the process). */
  private async run(job: PendingJob): Promise<void> {
    const label = `${job.queue}/${job.name} (${job.id})`;
    const processor = this.processors.get(job.queue);
    if (!processor) {
      this.logger.error(`Job ${label} dropped: no processor for queue "${job.queue}"`);
      this.finish(job);
      return;
    }
    const startedAt = performance.now();
    this.runningJobs.add(job);
    try {
      const data: unknown = job.json === undefined ? undefined : JSON.parse(job.json);
      const queued = { id: job.id, name: job.name, data, attemptsMade: job.attemptsMade };
      await inJobSpan('in-process', job.queue, queued, job.traceparent, () => processor.process(queued));
      recordJob(this.metrics, job.queue, startedAt);
      this.finish(job);
    } catch (error) {
      job.attemptsMade += 1;
      const reason = error instanceof Error ? error.message : String(error);
      const retried = job.attemptsMade < job.attempts && !this.stopped;
      recordJob(this.metrics, job.queue, startedAt, { final: !retried });
      if (!retried) this.failedJobs.set(job.queue, (this.failedJobs.get(job.queue) ?? 0) + 1);
      if (retried) {
        const delay = retryDelay(job.backoffMs, job.attemptsMade);
        this.logger.warn(
          `Job ${label} failed (attempt ${job.attemptsMade}/${job.attempts}), retrying in ${delay} ms: ${reason}`,
        );
        this.schedule(job, delay);
      } else {
        const outcome = this.stopped ? 'not retried (shutting down)' : 'giving up';
        const message = `Job ${label} failed after ${job.attemptsMade} attempt(s), ${outcome}: ${reason}`;
        if (error instanceof Error && error.stack) this.logger.error(message, error.stack);
        else this.logger.error(message);
        // Cut short by the shutdown, it has attempts left: not settled as run.
        this.finish(job, !this.stopped);
      }
    } finally {
      this.runningJobs.delete(job);
    }
  }

  private finish(job: PendingJob, ran = true): void {
    const key = `${job.queue}/${job.id}`;
    this.active.delete(key);
    this.finished.set(key, ran);
    if (this.finished.size > FINISHED_IDS_KEPT) {
      this.finished.delete(this.finished.keys().next().value!);
    }
    this.settle(key, ran);
  }

  private settle(key: string, ran: boolean): void {
    const waiting = this.waiters.get(key);
    if (!waiting) return;
    this.waiters.delete(key);
    for (const resolve of waiting) resolve(ran);
  }
}
