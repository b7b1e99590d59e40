import { setTimeout as sleep } from 'node:timers/promises';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { BullMqQueue } from '../src/infra/queue/bullmq.queue.js';
import type { QueueModuleOptions } from '../src/infra/queue/queue.options.js';
import type { QueueJob } from '../src/infra/queue/queue.port.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { processorFor, type QueueContext, startQueueContext } from './support/queue-context.js';
import { describeWithRedis, type RedisHandle, startRedis } from './support/redis.js';
import { waitFor } from './support/wait-for.js';

describeWithRedis('BullMQ queue (REDIS_URL set)', () => {
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
    queueName = `jobs-${++serial}`; // a queue of its own per test, on the one Redis
  });

  afterEach(async () => {
    for (const ctx of contexts.splice(0)) await ctx.close();
  });

  async function start(
    handle: ((job: QueueJob) => Promise<void> | void) | undefined,
    options: Partial<QueueModuleOptions> = {},
  ): Promise<QueueContext> {
    const processors = handle ? [processorFor(queueName, handle)] : [];
    const ctx = await startQueueContext(
      { redisUrl: redis.url, queues: [queueName], ...options },
      processors,
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

  async function stateOf(ctx: QueueContext, jobId: string): Promise<string> {
    return (await bullQueue(ctx).getJobState(jobId)) as string;
  }

  it('processes a job added through the port, with its jobId, defaults and bounded history', async () => {
    const seen: QueueJob[] = [];
    const ctx = await start((job) => {
      seen.push(job);
    });
    expect(ctx.queue).toBeInstanceOf(BullMqQueue);
    // Jobs are in Redis once added: the outbox deletes their rows then (no need to wait for them to run).
    expect(ctx.queue.durable).toBe(true);
    expect(await ctx.queue.settled(queueName, 'greet-ada')).toBe(true);

    await ctx.queue.add(queueName, 'greet', { to: 'ada', at: new Date(0) }, { jobId: 'greet-ada' });
    await waitFor('the job to be processed', () => seen.length === 1);
    expect(seen[0]).toEqual({
      id: 'greet-ada',
      name: 'greet',
      data: { to: 'ada', at: '1970-01-01T00:00:00.000Z' },
      attemptsMade: 0,
    });
    await waitFor('the job to complete', async () => (await stateOf(ctx, 'greet-ada')) === 'completed');
    const job = await bullQueue(ctx).getJob('greet-ada');
    expect(job?.opts).toMatchObject({
      attempts: 5,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { count: 1000, age: 24 * 3600 },
      removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
    });

    // The same id again is not a new job; another id is.
    await ctx.queue.add(queueName, 'greet', { to: 'ada' }, { jobId: 'greet-ada' });
    await ctx.queue.add(queueName, 'greet', { to: 'bob' }, { jobId: 'greet-bob' });
    await waitFor('the second job', () => seen.length === 2);
    await sleep(100);
    expect(seen.map((j) => j.id)).toEqual(['greet-ada', 'greet-bob']);
  });

  it('runs a delayed job (a BullMQ delayed job) no sooner than its delay', async () => {
    const seen: Array<{ id: string; at: number }> = [];
    const ctx = await start((job) => {
      seen.push({ id: job.id, at: Date.now() });
    });
    const added = Date.now();
    await ctx.queue.add(queueName, 'expire', {}, { jobId: 'expire-later', delayMs: 300 });
    expect(await stateOf(ctx, 'expire-later')).toBe('delayed');
    await waitFor('the delayed job', () => seen.length === 1);
    expect(seen[0]!.at - added).toBeGreaterThanOrEqual(300);
  });

  it('retries a processor that fails twice with exponential backoff, then completes', async () => {
    const attempts: Array<{ attemptsMade: number; at: number }> = [];
    const ctx = await start((job) => {
      attempts.push({ attemptsMade: job.attemptsMade, at: performance.now() });
      if (job.attemptsMade < 2) throw new Error(`flaky ${job.attemptsMade}`);
    });
    await ctx.queue.add(queueName, 'flaky', {}, { jobId: 'flaky-1', backoffMs: 50 });

    await waitFor('the job to complete', async () => (await stateOf(ctx, 'flaky-1')) === 'completed');
    expect(attempts.map((a) => a.attemptsMade)).toEqual([0, 1, 2]);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(45);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(95);
    const job = await bullQueue(ctx).getJob('flaky-1');
    expect(job?.opts.backoff).toEqual({ type: 'exponential', delay: 50 });
    const warnings = logs.entries.filter((e) => e.level === 'warn').map((e) => e.message);
    expect(warnings).toEqual([
      `Job ${queueName}/flaky (flaky-1) failed (attempt 1/5): flaky 0`,
      `Job ${queueName}/flaky (flaky-1) failed (attempt 2/5): flaky 1`,
    ]);
  });

  it('fails a job for good once its attempts are used up, and logs it', async () => {
    let calls = 0;
    const ctx = await start(() => {
      calls += 1;
      throw new Error('always broken');
    });
    await ctx.queue.add(queueName, 'broken', {}, { jobId: 'broken-1', attempts: 2, backoffMs: 10 });

    await waitFor('the job to fail', async () => (await stateOf(ctx, 'broken-1')) === 'failed');
    expect(calls).toBe(2);
    await waitFor('the error log', () => logs.entries.some((e) => e.level === 'error'));
    expect(logs.entries.filter((e) => e.level === 'error').map((e) => e.message)).toEqual([
      `Job ${queueName}/broken (broken-1) failed after 2 attempt(s), giving up: always broken`,
    ]);
  });

  it('keeps a job added while no worker runs; a worker started later completes it once', async () => {
    const producer = await start(undefined, { runProcessors: false });
    await producer.queue.add(queueName, 'later', { n: 1 }, { jobId: 'later-1' });
    await sleep(200);
    expect(await stateOf(producer, 'later-1')).toBe('waiting');
    await stop(producer);

    const seen: string[] = [];
    const worker = await start((job) => {
      seen.push(job.id);
    });
    await waitFor('the job to complete', async () => (await stateOf(worker, 'later-1')) === 'completed');
    await sleep(100);
    expect(seen).toEqual(['later-1']);
  });

  it('hands the job of a worker stopped mid-job to a new worker, and its effect happens once', async () => {
    // The processor records its effect under a per-job marker first, so a second run does not repeat it.
    const markers = new Set<string>();
    const effects: string[] = [];
    let calls = 0;
    const handle = async (job: QueueJob): Promise<void> => {
      calls += 1;
      if (!markers.has(job.id)) {
        markers.add(job.id);
        effects.push(job.id);
      }
      if (calls === 1) await new Promise(() => undefined); // the first worker never gets to acknowledge
    };
    // A short lock, so that the dead worker's job counts as stalled quickly.
    const options = { shutdownTimeoutMs: 100, worker: { lockDuration: 1000, stalledInterval: 200 } };

    const first = await start(handle, options);
    await first.queue.add(queueName, 'once', {}, { jobId: 'once-1' });
    await waitFor('the first worker to take the job', () => calls === 1);
    await stop(first);
    expect(logs.text()).toContain('1 job(s) still running after 100 ms: leaving them to another worker');

    const second = await start(handle, options);
    await waitFor('the job to complete', async () => (await stateOf(second, 'once-1')) === 'completed');
    expect(calls).toBe(2);
    expect(effects).toEqual(['once-1']);
  });

  it('waits at shutdown for a running job to finish', async () => {
    const events: string[] = [];
    const ctx = await start(async () => {
      events.push('started');
      await sleep(300);
      events.push('finished');
    });
    await ctx.queue.add(queueName, 'slow', {}, { jobId: 'slow-1' });
    await waitFor('the job to start', () => events.length === 1);

    await stop(ctx);
    expect(events).toEqual(['started', 'finished']);
    const check = await start(undefined, { runProcessors: false });
    expect(await stateOf(check, 'slow-1')).toBe('completed');
  });
});
