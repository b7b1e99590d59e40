import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { BullMqQueue } from '../src/infra/queue/bullmq.queue.js';
import { InProcessQueue } from '../src/infra/queue/in-process.queue.js';
import type { QueueModuleOptions } from '../src/infra/queue/queue.options.js';
import {
  type QueueJob,
  QueueProcessor,
  QueuePort,
  type RepeatableJob,
} from '../src/infra/queue/queue.port.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { type QueueContext, startQueueContext } from './support/queue-context.js';
import { describeWithRedis, type RedisHandle, startRedis } from './support/redis.js';
import { waitFor } from './support/wait-for.js';

/** One run of a repeatable job, as a processor saw it. */
interface Run {
  id: string;
  name: string;
  data: unknown;
  at: number;
  /** Which process (queue context) ran it. */
  by: string;
}

/**
 * A processor of `queue` that registers `job` as a feature module does (QueuePort.repeat in onModuleInit)
 * and hands each run to `handle`.
 */
function repeatingProcessor(
  queue: string,
  job: RepeatableJob | undefined,
  handle: (job: QueueJob) => Promise<void> | void,
): Type {
  @Injectable()
  @QueueProcessor(queue)
  class RepeatingProcessor implements QueueProcessor, OnModuleInit {
    constructor(@Inject(QueuePort) private readonly port: QueuePort) {}

    onModuleInit(): void {
      if (job) this.port.repeat(job);
    }

    async process(run: QueueJob): Promise<void> {
      await handle(run);
    }
  }
  return RepeatingProcessor;
}

describe('repeatable jobs, in-process queue (REDIS_URL unset)', () => {
  const QUEUE = 'chores';
  let logs: CapturingLogger;
  let ctx: QueueContext | undefined;

  beforeEach(() => {
    logs = new CapturingLogger();
  });

  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  const tidy = (everyMs: number): RepeatableJob => ({
    queue: QUEUE,
    id: 'tidy',
    name: 'tidy',
    data: { room: 'hall', at: new Date(0) },
    everyMs,
  });

  it('adds the job every interval in the process that runs the jobs, the first one interval after the start, until the shutdown', async () => {
    const runs: Run[] = [];
    const started = Date.now();
    ctx = await startQueueContext(
      { redisUrl: undefined, queues: [QUEUE] },
      [repeatingProcessor(QUEUE, tidy(200), (job) => void runs.push({ ...job, at: Date.now(), by: 'one' }))],
      logs,
    );
    expect(ctx.queue).toBeInstanceOf(InProcessQueue);
    expect(ctx.queue.repeatableJobs).toEqual([
      { ...tidy(200), data: { room: 'hall', at: '1970-01-01T00:00:00.000Z' } },
    ]);
    expect(logs.text()).toContain('Job chores/tidy (tidy) repeats every 200 ms');

    await waitFor('four runs', () => runs.length >= 4);
    const elapsed = Date.now() - started;
    // Timers never fire early (1 ms of slack for clock rounding); one run per interval, never more.
    expect(runs[0]!.at - started).toBeGreaterThanOrEqual(199);
    expect(runs.length).toBeLessThanOrEqual(Math.floor(elapsed / 200));
    expect(new Set(runs.map((run) => run.id)).size).toBe(runs.length);
    for (const run of runs) {
      expect(run).toMatchObject({
        id: expect.stringMatching(/^tidy-\d+$/),
        name: 'tidy',
        data: { room: 'hall', at: '1970-01-01T00:00:00.000Z' },
      });
    }
    // Each run is one interval after the one before (its slot), whatever the time the job took.
    const slots = runs.map((run) => Number(run.id.slice('tidy-'.length)));
    for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBe(200);

    await ctx.close();
    ctx = undefined;
    const count = runs.length;
    await sleep(500);
    expect(runs).toHaveLength(count);
    expect(logs.entries.filter((e) => e.level === 'warn' || e.level === 'error')).toEqual([]);
  });

  it('starts a job registered after the start at once (one interval later)', async () => {
    const runs: Run[] = [];
    ctx = await startQueueContext(
      { redisUrl: undefined, queues: [QUEUE] },
      [repeatingProcessor(QUEUE, undefined, (job) => void runs.push({ ...job, at: Date.now(), by: 'one' }))],
      logs,
    );
    await sleep(100);
    expect(runs).toEqual([]);
    const registered = Date.now();
    ctx.queue.repeat(tidy(150));
    // Registered again as it was (another module, or a module initialised twice): still one schedule.
    ctx.queue.repeat(tidy(150));
    expect(ctx.queue.repeatableJobs).toHaveLength(1);
    await waitFor('three runs', () => runs.length >= 3);
    expect(runs[0]!.at - registered).toBeGreaterThanOrEqual(149);
    expect(runs.length).toBeLessThanOrEqual(Math.floor((Date.now() - registered) / 150));
  });

  it('skips a run while the one before still runs, instead of running two at once', async () => {
    let running = 0;
    let most = 0;
    const runs: string[] = [];
    ctx = await startQueueContext(
      { redisUrl: undefined, queues: [QUEUE] },
      [
        repeatingProcessor(QUEUE, tidy(100), async (job) => {
          runs.push(job.id);
          running += 1;
          most = Math.max(most, running);
          if (runs.length === 1) await sleep(450);
          running -= 1;
        }),
      ],
      logs,
    );
    await waitFor('three runs', () => runs.length >= 3, 5000);
    expect(most).toBe(1);
    const skipped = logs.entries.filter((e) => e.level === 'warn').map((e) => e.message);
    expect(skipped.length).toBeGreaterThanOrEqual(3);
    expect(new Set(skipped)).toEqual(
      new Set(['Job chores/tidy (tidy) not added this time: the previous one has not finished']),
    );
    // The run after the long one is at the next free slot, not a burst of the ones missed.
    const slots = runs.map((id) => Number(id.slice('tidy-'.length)));
    expect(slots[1]! - slots[0]!).toBeGreaterThanOrEqual(400);
  });

  it('refuses an unknown queue, an id BullMQ would refuse, a bad interval, and two jobs under one id', async () => {
    ctx = await startQueueContext(
      { redisUrl: undefined, queues: [QUEUE] },
      [repeatingProcessor(QUEUE, tidy(60_000), () => undefined)],
      logs,
    );
    expect(() => ctx!.queue.repeat({ ...tidy(1000), queue: 'nope' })).toThrow(
      'Unknown queue "nope" (queues: chores)',
    );
    expect(() => ctx!.queue.repeat({ ...tidy(1000), id: '42' })).toThrow('Invalid repeatable job id "42"');
    expect(() => ctx!.queue.repeat({ ...tidy(1000), id: 'a:b' })).toThrow('Invalid repeatable job id "a:b"');
    for (const everyMs of [0, -5, 1.5, Number.NaN]) {
      expect(() => ctx!.queue.repeat({ ...tidy(everyMs), id: 'other' })).toThrow(
        `Repeatable job chores/other: everyMs must be a positive integer, not ${everyMs}`,
      );
    }
    expect(() => ctx!.queue.repeat(tidy(1000))).toThrow(
      'Repeatable job chores/tidy is registered twice, with different settings',
    );
    expect(ctx.queue.repeatableJobs.map((job) => job.id)).toEqual(['tidy']);
  });

  it('adds the job at each time of a cron pattern (UTC) instead of an interval', async () => {
    const runs: Run[] = [];
    const everySecond: RepeatableJob = {
      queue: QUEUE,
      id: 'nightly',
      name: 'nightly',
      data: {},
      pattern: '* * * * * *',
    };
    ctx = await startQueueContext(
      { redisUrl: undefined, queues: [QUEUE] },
      [
        repeatingProcessor(
          QUEUE,
          everySecond,
          (job) => void runs.push({ ...job, at: Date.now(), by: 'one' }),
        ),
      ],
      logs,
    );
    expect(logs.text()).toContain('Job chores/nightly (nightly) repeats at "* * * * * *" (UTC)');
    await waitFor('two runs', () => runs.length >= 2);
    // Each run is one time of the pattern: whole seconds, one apart, never before its time.
    const slots = runs.map((run) => Number(/^nightly-(\d+)$/.exec(run.id)![1]));
    for (const [i, slot] of slots.entries()) {
      expect(slot % 1000).toBe(0);
      expect(runs[i]!.at).toBeGreaterThanOrEqual(slot - 1);
    }
    expect(slots[1]! - slots[0]!).toBe(1000);
  });

  it('refuses a job with both an interval and a pattern, with neither, or with a bad pattern', async () => {
    ctx = await startQueueContext({ redisUrl: undefined, queues: [QUEUE] }, [], logs);
    const job = { queue: QUEUE, id: 'nightly', name: 'nightly', data: {} };
    expect(() => ctx!.queue.repeat({ ...job, everyMs: 1000, pattern: '0 3 * * *' })).toThrow(
      'Repeatable job chores/nightly: give either everyMs or pattern',
    );
    expect(() => ctx!.queue.repeat(job)).toThrow(
      'Repeatable job chores/nightly: give either everyMs or pattern',
    );
    expect(() => ctx!.queue.repeat({ ...job, pattern: 'at three' })).toThrow();
    expect(ctx.queue.repeatableJobs).toEqual([]);
  });

  it('fails the start-up on a bad repeatable job, as on any wiring mistake', async () => {
    await expect(
      startQueueContext(
        { redisUrl: undefined, queues: [QUEUE] },
        [repeatingProcessor(QUEUE, { ...tidy(1000), queue: 'elsewhere' }, () => undefined)],
        logs,
      ),
    ).rejects.toThrow('Unknown queue "elsewhere" (queues: chores)');
  });
});

describeWithRedis('repeatable jobs, BullMQ (REDIS_URL set): a job scheduler in Redis', () => {
  let redis: RedisHandle;
  let logs: CapturingLogger;
  let queueName: string;
  let serial = 0;
  const contexts: QueueContext[] = [];

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  beforeEach(() => {
    logs = new CapturingLogger();
    queueName = `repeat-${++serial}`; // a queue of its own per test, on the one Redis
  });

  afterEach(async () => {
    for (const ctx of contexts.splice(0)) await ctx.close();
  });

  const sweep = (everyMs: number): RepeatableJob => ({
    queue: queueName,
    id: 'sweep',
    name: 'sweep',
    data: { scope: 'all' },
    everyMs,
    attempts: 1,
  });

  /** A process of the app: registers `job` as the feature module does, and runs jobs unless told not to. */
  async function startProcess(
    job: RepeatableJob,
    handle: (job: QueueJob) => Promise<void> | void,
    options: Partial<QueueModuleOptions> = {},
  ): Promise<QueueContext> {
    const ctx = await startQueueContext(
      { redisUrl: redis.url, queues: [queueName], ...options },
      [repeatingProcessor(queueName, job, handle)],
      logs,
    );
    contexts.push(ctx);
    return ctx;
  }

  async function stop(ctx: QueueContext): Promise<void> {
    contexts.splice(contexts.indexOf(ctx), 1);
    await ctx.close();
  }

  const bullQueue = (ctx: QueueContext): Queue => ctx.app.get<Queue>(getQueueToken(queueName));

  it('runs once per interval across two workers, each run one job of the one scheduler', async () => {
    const runs: Run[] = [];
    const record = (by: string) => (job: QueueJob) => void runs.push({ ...job, at: Date.now(), by });
    const started = Date.now();
    const first = await startProcess(sweep(300), record('first'));
    const second = await startProcess(sweep(300), record('second'));
    expect(first.queue).toBeInstanceOf(BullMqQueue);
    await waitFor('the scheduler', () =>
      logs.text().includes(`Job ${queueName}/sweep (sweep) repeats every 300 ms`),
    );

    await sleep(3000);
    const elapsed = Date.now() - started;
    const seen = [...runs];
    // Not twice per interval (one per worker): once, give or take the one due as we stopped looking.
    expect(seen.length).toBeGreaterThanOrEqual(Math.floor(elapsed / 300) - 3);
    expect(seen.length).toBeLessThanOrEqual(Math.floor(elapsed / 300) + 1);
    expect(new Set(seen.map((run) => run.id)).size).toBe(seen.length);
    // Each run is the scheduler's job of one slot (repeat:<scheduler>:<slot>), the slots one interval apart.
    const slots = seen.map((run) => Number(/^repeat:sweep:(\d+)$/.exec(run.id)![1]));
    for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBe(300);
    for (const run of seen) expect(run).toMatchObject({ name: 'sweep', data: { scope: 'all' } });
    // The first run one interval after the first worker started it, not at once.
    expect(seen[0]!.at - started).toBeGreaterThanOrEqual(290);

    const schedulers = await bullQueue(second).getJobSchedulers();
    expect(schedulers).toEqual([expect.objectContaining({ key: 'sweep', name: 'sweep', every: 300 })]);
    const job = await bullQueue(second).getJob(seen[0]!.id);
    expect(job?.opts).toMatchObject({ attempts: 1, removeOnComplete: { count: 1000, age: 24 * 3600 } });
    expect(logs.entries.filter((e) => e.level === 'warn' || e.level === 'error')).toEqual([]);
  });

  it('runs a cron pattern once per time across two workers', async () => {
    const runs: Run[] = [];
    const record = (by: string) => (job: QueueJob) => void runs.push({ ...job, at: Date.now(), by });
    const { everyMs: _none, ...job } = { ...sweep(1), pattern: '* * * * * *' };
    await startProcess(job, record('first'));
    await startProcess(job, record('second'));
    await waitFor('the scheduler', () =>
      logs.text().includes(`Job ${queueName}/sweep (sweep) repeats at "* * * * * *" (UTC)`),
    );
    await waitFor('two runs', () => runs.length >= 2);
    await sleep(300);
    const slots = runs.map((run) => Number(/^repeat:sweep:(\d+)$/.exec(run.id)![1]));
    expect(new Set(slots).size).toBe(slots.length);
    for (const slot of slots) expect(slot % 1000).toBe(0);
    for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBe(1000);
  });

  it('keeps the one schedule, and its timing, when a worker restarts', async () => {
    const runs: Run[] = [];
    const record = (by: string) => (job: QueueJob) => void runs.push({ ...job, at: Date.now(), by });
    const first = await startProcess(sweep(1000), record('first'));
    await waitFor('the scheduler', () => logs.text().includes('repeats every 1000 ms'));
    const before = await bullQueue(first).getJobScheduler('sweep');
    await stop(first);

    // Started again: the schedule's slots stay where they were (no new timing, no extra run).
    const again = await startProcess(sweep(1000), record('again'));
    await waitFor(
      'the scheduler upserted again',
      () => logs.text().split('repeats every 1000 ms').length === 3,
    );
    const after = await bullQueue(again).getJobScheduler('sweep');
    expect(after?.next).toBe(before?.next);
    expect(await bullQueue(again).getJobSchedulersCount()).toBe(1);
    await waitFor('two runs', () => runs.length >= 2);
    const slots = runs.map((run) => Number(/^repeat:sweep:(\d+)$/.exec(run.id)![1]));
    expect(slots[0]).toBe(before?.next);
    expect(slots[1]! - slots[0]!).toBe(1000);
    expect(runs.map((run) => run.by)).toEqual(['again', 'again']);
  });

  it('neither schedules nor runs it in a process that does not run jobs (PROCESS_JOBS=off)', async () => {
    const runs: Run[] = [];
    const api = await startProcess(
      sweep(100),
      (job) => void runs.push({ ...job, at: Date.now(), by: 'api' }),
      {
        runProcessors: false,
      },
    );
    expect(api.queue.repeatableJobs).toEqual([sweep(100)]);
    await sleep(500);
    expect(await bullQueue(api).getJobScheduler('sweep')).toBeUndefined();
    expect(runs).toEqual([]);

    // A worker comes: it schedules the job, and runs it.
    await startProcess(sweep(100), (job) => void runs.push({ ...job, at: Date.now(), by: 'worker' }));
    await waitFor('a run', () => runs.length >= 2);
    expect(await bullQueue(api).getJobScheduler('sweep')).toMatchObject({ every: 100 });
    expect(new Set(runs.map((run) => run.by))).toEqual(new Set(['worker']));
  });

  it('logs a failed run and runs again at the next interval (attempts: 1)', async () => {
    let calls = 0;
    await startProcess(sweep(200), () => {
      calls += 1;
      if (calls === 1) throw new Error('storage unreachable');
    });
    await waitFor('the run after the failed one', () => calls >= 2);
    expect(logs.entries.filter((e) => e.level === 'error').map((e) => e.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Job ${queueName}/sweep \\(repeat:sweep:\\d+\\) failed after 1 attempt\\(s\\), giving up: storage unreachable$`,
        ),
      ),
    ]);
  });
});
