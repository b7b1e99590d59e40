import { setTimeout as sleep } from 'node:timers/promises';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleInit,
  Optional,
} from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import {
  createIORedisClient,
  type DefaultJobOptions,
  type IRedisClient,
  type Job,
  type JobSchedulerTemplateOptions,
  type JobsOptions,
  type Queue,
  type QueueOptions,
  RedisConnection,
  type RedisOptions,
  Worker,
} from 'bullmq';
import { Redis } from 'ioredis';
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
  repeatsWhen,
} from './queue.port.js';

/** For QueueModule, which loads this file (and BullMQ) only when REDIS_URL is set. */
export { BullModule } from '@nestjs/bullmq';

/**
 * Every queue's defaults: exponential backoff; the last 1000 completed jobs kept a day, the last 5000
 * failed a week (for the dashboard's retry), trimmed as others finish.
 */
export const BULL_JOB_DEFAULTS: DefaultJobOptions = {
  attempts: DEFAULT_JOB_OPTIONS.attempts,
  backoff: { type: 'exponential', delay: DEFAULT_JOB_OPTIONS.backoffMs },
  removeOnComplete: { count: 1000, age: 24 * 3600 },
  removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
};

/** How long shutdown waits for the BullMQ workers to close once their jobs are done. */
const WORKER_CLOSE_WAIT_MS = 2000;

/** The options a job sets over the queue's defaults (an undefined value would override a default). */
function jobOptionsOf(options: Pick<JobOptions, 'attempts' | 'backoffMs'>): JobSchedulerTemplateOptions {
  const jobOptions: JobSchedulerTemplateOptions = {};
  if (options.attempts !== undefined) jobOptions.attempts = Math.max(1, options.attempts);
  if (options.backoffMs !== undefined) {
    jobOptions.backoff = { type: 'exponential', delay: options.backoffMs };
  }
  return jobOptions;
}

/** The shared BullMQ configuration (`BullModule.forRootAsync`): every queue and worker connects to REDIS_URL. */
export function bullConnection(redisUrl: string): QueueOptions {
  // BullMQ require()s ioredis from its own folder, where npm did not hoist our ioredis 6 (typeorm's optional
  // peer pins ^5): hand it our copy. BullMQ still owns (and closes) every connection it makes.
  RedisConnection.clientFactory = ioredisClient;
  return { connection: { url: redisUrl, maxRetriesPerRequest: null } };
}

/** Whether the worker's Redis connection is up right now. */
async function isConnected(worker: Worker): Promise<boolean> {
  const client = (worker.getBackend() as { client?: Promise<IRedisClient> }).client;
  if (!client) return false;
  const connection = await Promise.race([client, sleep(100).then(() => undefined)]);
  return connection?.status === 'ready';
}

function ioredisClient({ url, ...options }: RedisOptions): IRedisClient {
  return createIORedisClient(url ? new Redis(url, options) : new Redis(options));
}

/**
 * The queue with REDIS_URL: BullMQ, with a Worker per processor unless `runProcessors` is false; a dead
 * worker's job goes to another once its lock expires. Repeatable jobs are BullMQ job schedulers.
 */
@Injectable()
export class BullMqQueue
  extends QueuePort
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown
{
  /** Jobs are in Redis once added: they outlive this process. */
  readonly durable = true;
  private readonly logger = new Logger('Queue');
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly repeatable = new RepeatableJobs();
  /** Whether the repeatable jobs are scheduled here (this process runs jobs, and has started). */
  private scheduling = false;
  /** The job schedulers being upserted. */
  private readonly upserting = new Set<Promise<void>>();

  constructor(
    @Inject(QUEUE_OPTIONS) private readonly options: ResolvedQueueOptions,
    private readonly moduleRef: ModuleRef,
    private readonly discovery: DiscoveryService,
    @Optional() private readonly metrics?: Metrics,
  ) {
    super();
    metrics?.onScrape(QUEUE_JOBS_FAMILY, async () => depthReading(await this.depth()));
  }

  /** Each queue's jobs in Redis (every process's), by state: one round trip per queue. */
  async depth(): Promise<Map<string, QueueDepth>> {
    const counts = await Promise.all(
      [...this.queues].map(async ([name, queue]) => {
        const {
          waiting = 0,
          active = 0,
          delayed = 0,
          failed = 0,
        } = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
        return [name, { waiting, active, delayed, failed }] as const;
      }),
    );
    return new Map(counts);
  }

  onModuleInit(): void {
    for (const name of this.options.queues) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      // An 'error' event nobody listens to (Redis unreachable) would crash the process.
      queue.on('error', (error) => this.logger.error(`Queue ${name}: ${error.message}`));
      this.queues.set(name, queue);
    }
  }

  /** Workers start once every module is initialised, so processors find their dependencies ready. */
  onApplicationBootstrap(): void {
    if (!this.options.runProcessors) {
      this.logger.log(`Not running jobs here (PROCESS_JOBS=off): workers run queues ${this.queueList()}`);
      return;
    }
    const processors = findProcessors(this.discovery, this.options.queues);
    // In the order of the queues, whatever the order Nest found their processors in.
    for (const name of this.options.queues) {
      const processor = processors.get(name);
      if (processor) this.workers.push(this.startWorker(this.queues.get(name)!, processor));
    }
    this.logger.log(`Running the jobs of queues ${this.processedQueues.join(', ')}`);
    this.scheduling = true;
    for (const job of this.repeatable.all) this.upsertScheduler(job);
  }

  get repeatableJobs(): RepeatableJob[] {
    return this.repeatable.all;
  }

  repeat<T>(job: RepeatableJob<T>): void {
    assertKnownQueue(job.queue, this.options.queues);
    if (this.repeatable.add(job) && this.scheduling) this.upsertScheduler(job);
  }

  /**
   * Upserts the job scheduler: one already there keeps its timing, so its next run stays one job. Not
   * awaited at start-up (Redis may be down).
   */
  private upsertScheduler(job: RepeatableJob): void {
    const queue = this.queues.get(job.queue)!;
    const label = `${job.queue}/${job.name} (${job.id})`;
    const upsert = queue
      .upsertJobScheduler(
        job.id,
        job.pattern === undefined
          ? { every: job.everyMs!, startDate: Date.now() + job.everyMs! }
          : { pattern: job.pattern, tz: 'UTC' },
        { name: job.name, data: job.data, opts: jobOptionsOf(job) },
      )
      .then(
        () => this.logger.log(`Job ${label} repeats ${repeatsWhen(job)}`),
        (error: unknown) =>
          this.logger.error(
            `Job ${label} could not be scheduled: ${error instanceof Error ? error.message : String(error)}`,
          ),
      );
    this.upserting.add(upsert);
    void upsert.then(() => this.upserting.delete(upsert));
  }

  /** The names of the queues whose jobs this process runs (none when `runProcessors` is false). */
  get processedQueues(): string[] {
    return this.workers.map((worker) => worker.name);
  }

  private queueList(): string {
    return this.options.queues.join(', ');
  }

  async add<T>(queue: string, name: string, data: T, options: JobOptions = {}): Promise<void> {
    assertKnownQueue(queue, this.options.queues);
    assertValidJobId(options.jobId);
    // Only what the caller set: an undefined value would override the queue's default.
    const jobOptions: JobsOptions = jobOptionsOf(options);
    if (options.jobId !== undefined) jobOptions.jobId = options.jobId;
    if (options.delayMs !== undefined && options.delayMs > 0) jobOptions.delay = Math.round(options.delayMs);
    // Kept in the job's options (BullMQ's own field for it), not in its data: the processor's data is as given.
    const trace = options.traceparent === undefined ? traceparent() : options.traceparent;
    if (trace) jobOptions.telemetry = { metadata: trace };
    await this.queues.get(queue)!.add(name, data, jobOptions);
  }

  /**
   * Stops taking jobs and waits (bounded) for the running ones while the database and queues are still
   * open; a job still running after that is left locked, and another worker takes it over.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.scheduling = false;
    if (this.upserting.size > 0) await settlesWithin(Promise.all(this.upserting), WORKER_CLOSE_WAIT_MS);
    if (this.workers.length === 0) return;
    await Promise.all(this.workers.map((worker) => worker.pause(true)));
    let finished = true;
    if (this.running.size > 0) {
      this.logger.log(`Waiting for ${this.running.size} running job(s) to finish`);
      finished = await settlesWithin(Promise.allSettled(this.running), this.options.shutdownTimeoutMs);
      if (!finished) {
        this.logger.warn(
          `${this.running.size} job(s) still running after ${this.options.shutdownTimeoutMs} ms: ` +
            'leaving them to another worker',
        );
      }
    }
    // A graceful close talks to Redis, and waits for it forever while it is unreachable.
    const connected = (await Promise.all(this.workers.map(isConnected))).every(Boolean);
    if (!connected) this.logger.warn('Redis is unreachable: closing the queue workers without it');
    const closed = Promise.all(this.workers.map((worker) => worker.close(!finished || !connected)));
    if (!(await settlesWithin(closed, WORKER_CLOSE_WAIT_MS))) {
      this.logger.warn(`The queue workers did not close within ${WORKER_CLOSE_WAIT_MS} ms`);
    }
  }

  private startWorker(queue: Queue, processor: QueueProcessor): Worker {
    const worker = new Worker(
      queue.name,
      (job: Job) => {
        const startedAt = performance.now();
        const queued = { id: job.id!, name: job.name, data: job.data, attemptsMade: job.attemptsMade };
        const run = inJobSpan('bullmq', queue.name, queued, job.opts.telemetry?.metadata ?? null, async () =>
          processor.process(queued),
        ).then(
          () => recordJob(this.metrics, queue.name, startedAt),
          (error: unknown) => {
            // BullMQ counts this attempt once we rethrow: the last one was the job's last allowed.
            const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
            recordJob(this.metrics, queue.name, startedAt, { final });
            throw error;
          },
        );
        this.running.add(run);
        const done = (): boolean => this.running.delete(run);
        run.then(done, done);
        return run;
      },
      { connection: queue.opts.connection, prefix: queue.opts.prefix, ...this.options.worker },
    );
    worker.on('failed', (job, error) => {
      if (!job) {
        this.logger.error(`A job of queue ${queue.name} failed: ${error.message}`, error.stack);
        return;
      }
      const label = `${queue.name}/${job.name} (${job.id})`;
      const attempts = job.opts.attempts ?? 1;
      if (job.attemptsMade < attempts) {
        this.logger.warn(`Job ${label} failed (attempt ${job.attemptsMade}/${attempts}): ${error.message}`);
      } else {
        this.logger.error(
          `Job ${label} failed after ${job.attemptsMade} attempt(s), giving up: ${error.message}`,
          error.stack,
        );
      }
    });
    worker.on('error', (error) => this.logger.error(`Worker ${queue.name}: ${error.message}`, error.stack));
    return worker;
  }
}
