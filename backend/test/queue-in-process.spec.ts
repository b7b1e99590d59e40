import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { InProcessQueue } from '../src/infra/queue/in-process.queue.js';
import { type QueueJob, QueueProcessor, QueuePort } from '../src/infra/queue/queue.port.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { processorFor, type QueueContext, startQueueContext } from './support/queue-context.js';
import { waitFor } from './support/wait-for.js';

const QUEUE = 'chores';

describe('in-process queue (REDIS_URL unset)', () => {
  let logs: CapturingLogger;
  let ctx: QueueContext | undefined;

  beforeEach(() => {
    logs = new CapturingLogger();
  });

  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  const start = (handle: (job: QueueJob) => Promise<void> | void, shutdownTimeoutMs?: number) =>
    startQueueContext(
      { redisUrl: undefined, queues: [QUEUE], shutdownTimeoutMs },
      [processorFor(QUEUE, handle)],
      logs,
    );

  it('is the QueuePort when REDIS_URL is unset', async () => {
    ctx = await start(() => undefined);
    expect(ctx.queue).toBeInstanceOf(InProcessQueue);
    expect(ctx.app.get(QueuePort)).toBe(ctx.queue);
  });

  it('runs a job after add returns, with its id, name and data as JSON (as BullMQ stores it)', async () => {
    const seen: QueueJob[] = [];
    ctx = await start((job) => {
      seen.push(job);
    });
    await ctx.queue.add(QUEUE, 'sweep', { room: 'hall', at: new Date(0) }, { jobId: 'sweep-hall' });
    expect(seen).toEqual([]);

    await waitFor('the job to run', () => seen.length === 1);
    expect(seen[0]).toEqual({
      id: 'sweep-hall',
      name: 'sweep',
      data: { room: 'hall', at: '1970-01-01T00:00:00.000Z' },
      attemptsMade: 0,
    });
  });

  it('runs a delayed job no sooner than its delay, and still adds its id once', async () => {
    const seen: Array<{ id: string; at: number }> = [];
    ctx = await start((job) => {
      seen.push({ id: job.id, at: performance.now() });
    });
    const added = performance.now();
    await ctx.queue.add(QUEUE, 'expire', {}, { jobId: 'expire-later', delayMs: 120 });
    await ctx.queue.add(QUEUE, 'expire', {}, { jobId: 'expire-later', delayMs: 10 });
    await ctx.queue.add(QUEUE, 'expire', {}, { jobId: 'expire-now' });

    await waitFor('both jobs to run', () => seen.length === 2);
    expect(seen.map((job) => job.id)).toEqual(['expire-now', 'expire-later']);
    expect(seen[1]!.at - added).toBeGreaterThanOrEqual(119);
  });

  it('retries a failing job with exponential backoff until it succeeds', async () => {
    const attempts: Array<{ attemptsMade: number; at: number }> = [];
    ctx = await start((job) => {
      attempts.push({ attemptsMade: job.attemptsMade, at: performance.now() });
      if (job.attemptsMade < 2) throw new Error(`flaky ${job.attemptsMade}`);
    });
    await ctx.queue.add(QUEUE, 'flaky', {}, { backoffMs: 40 });

    await waitFor('the third attempt', () => attempts.length === 3);
    expect(attempts.map((a) => a.attemptsMade)).toEqual([0, 1, 2]);
    // Timers never fire early; 1 ms of slack for performance.now() rounding.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(39);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(79);
    const warnings = logs.entries.filter((e) => e.level === 'warn').map((e) => e.message);
    expect(warnings).toEqual([
      expect.stringMatching(/^Job chores\/flaky \(.+\) failed \(attempt 1\/5\), retrying in 40 ms: flaky 0$/),
      expect.stringMatching(/failed \(attempt 2\/5\), retrying in 80 ms: flaky 1$/),
    ]);
    await sleep(200);
    expect(attempts).toHaveLength(3);
    expect(logs.entries.filter((e) => e.level === 'error')).toEqual([]);
  });

  it('logs a job that keeps failing and gives up after its attempts, without crashing', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // A processor that throws synchronously, and one that rejects with something that is no Error.
      @Injectable()
      @QueueProcessor(QUEUE)
      class BrokenProcessor implements QueueProcessor {
        calls: string[] = [];
        process(job: QueueJob): Promise<void> {
          this.calls.push(job.name);
          if (job.name === 'throws') throw new Error('thrown synchronously');
          if (job.name === 'rejects') return Promise.reject('not an Error');
          return Promise.resolve();
        }
      }
      ctx = await startQueueContext({ redisUrl: undefined, queues: [QUEUE] }, [BrokenProcessor], logs);
      const processor = ctx.app.get(BrokenProcessor);
      await ctx.queue.add(QUEUE, 'throws', {}, { attempts: 2, backoffMs: 5 });
      await ctx.queue.add(QUEUE, 'rejects', {}, { attempts: 1 });
      await waitFor('both to give up', () => logs.entries.filter((e) => e.level === 'error').length === 2);

      await ctx.queue.add(QUEUE, 'fine', {});
      await waitFor('a later job to run', () => processor.calls.includes('fine'));
      expect(processor.calls.sort()).toEqual(['fine', 'rejects', 'throws', 'throws']);
      const errors = logs.entries.filter((e) => e.level === 'error');
      expect(errors.map((e) => e.message).sort()).toEqual([
        expect.stringMatching(
          /^Job chores\/rejects \(.+\) failed after 1 attempt\(s\), giving up: not an Error$/,
        ),
        expect.stringMatching(
          /^Job chores\/throws \(.+\) failed after 2 attempt\(s\), giving up: thrown synchronously$/,
        ),
      ]);
      expect(errors.find((e) => e.message.includes('throws'))!.details[0]).toContain('thrown synchronously');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('adds a job id once while it waits or runs, and not again once it is done', async () => {
    const runs: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    ctx = await start(async (job) => {
      runs.push(job.id);
      if (job.id === 'once') await released;
    });
    await ctx.queue.add(QUEUE, 'ping', { n: 1 }, { jobId: 'once' });
    await ctx.queue.add(QUEUE, 'ping', { n: 2 }, { jobId: 'once' }); // waiting
    await waitFor('the job to start', () => runs.length === 1);
    await ctx.queue.add(QUEUE, 'ping', { n: 3 }, { jobId: 'once' }); // running
    release();
    await ctx.queue.add(QUEUE, 'ping', {}, { jobId: 'marker-1' });
    await waitFor('the marker job', () => runs.includes('marker-1'));
    await ctx.queue.add(QUEUE, 'ping', { n: 4 }, { jobId: 'once' }); // done
    await ctx.queue.add(QUEUE, 'ping', {}, { jobId: 'marker-2' });
    await waitFor('the second marker job', () => runs.includes('marker-2'));

    expect(runs).toEqual(['once', 'marker-1', 'marker-2']);
  });

  it('is not durable, and says when a job has settled: run (completed or failed for good), or not run', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    ctx = await start(async (job) => {
      if (job.name === 'slow') await released;
      if (job.name === 'broken') throw new Error('always broken');
    });
    expect(ctx.queue.durable).toBe(false);
    await ctx.queue.add(QUEUE, 'slow', {}, { jobId: 'slow-1' });
    await ctx.queue.add(QUEUE, 'broken', {}, { jobId: 'broken-1', attempts: 2, backoffMs: 10 });
    let slowSettled: boolean | undefined;
    void ctx.queue.settled(QUEUE, 'slow-1').then((ran) => (slowSettled = ran));
    expect(await ctx.queue.settled(QUEUE, 'broken-1')).toBe(true);
    await sleep(50);
    expect(slowSettled).toBeUndefined();
    release();
    await waitFor('the slow job to settle', () => slowSettled === true);
    // Settled already, and unknown.
    expect(await ctx.queue.settled(QUEUE, 'slow-1')).toBe(true);
    expect(await ctx.queue.settled(QUEUE, 'never-added')).toBe(false);
    expect(await ctx.queue.settled('elsewhere', 'slow-1')).toBe(false);
    logs.entries.length = 0; // broken-1's failure was expected
  });

  it('settles as not run the jobs dropped or cut short at shutdown (the outbox keeps their rows)', async () => {
    let started = false;
    ctx = await start(async (job) => {
      if (job.name === 'cut-short') {
        started = true;
        await sleep(200);
        throw new Error('interrupted');
      }
      throw new Error('try again later');
    }, 2000);
    await ctx.queue.add(QUEUE, 'cut-short', {}, { jobId: 'cut-short-1' });
    await ctx.queue.add(QUEUE, 'waiting', {}, { jobId: 'waiting-1', backoffMs: 60_000 });
    await waitFor('the job to start', () => started);
    await waitFor('the retry to be scheduled', () => logs.text().includes('retrying in 60000 ms'));
    const cutShort = ctx.queue.settled(QUEUE, 'cut-short-1');
    const waiting = ctx.queue.settled(QUEUE, 'waiting-1');

    const app = ctx;
    ctx = undefined;
    await app.close();
    expect(await waiting).toBe(false);
    expect(await cutShort).toBe(false);
    expect(logs.text()).toContain('not retried (shutting down): interrupted');
  });

  it('refuses an unknown queue and the job ids BullMQ refuses, like the BullMQ adapter', async () => {
    ctx = await start(() => undefined);
    await expect(ctx.queue.add('nope', 'x', {})).rejects.toThrow('Unknown queue "nope" (queues: chores)');
    await expect(ctx.queue.add(QUEUE, 'x', {}, { jobId: '42' })).rejects.toThrow('Invalid job id "42"');
    await expect(ctx.queue.add(QUEUE, 'x', {}, { jobId: 'a:b' })).rejects.toThrow('Invalid job id "a:b"');
  });

  it('fails the start-up on a processor for an unregistered queue, or two processors for one queue', async () => {
    await expect(
      startQueueContext(
        { redisUrl: undefined, queues: [QUEUE] },
        [processorFor('elsewhere', () => undefined)],
        logs,
      ),
    ).rejects.toThrow(/processes queue "elsewhere", which is not registered \(queues: chores\)/);
    await expect(
      startQueueContext(
        { redisUrl: undefined, queues: [QUEUE] },
        [processorFor(QUEUE, () => undefined), processorFor(QUEUE, () => undefined)],
        logs,
      ),
    ).rejects.toThrow('Queue "chores" has two processors');
  });

  it('waits at shutdown for a running job to finish', async () => {
    const events: string[] = [];
    ctx = await start(async () => {
      events.push('started');
      await sleep(300);
      events.push('finished');
    });
    await ctx.queue.add(QUEUE, 'slow', {});
    await waitFor('the job to start', () => events.length === 1);

    await ctx.close();
    ctx = undefined;
    expect(events).toEqual(['started', 'finished']);
    expect(logs.text()).toContain('Waiting for 1 running job(s) to finish');
  });

  it('waits no longer than shutdownTimeoutMs, drops waiting jobs, and refuses new ones', async () => {
    let started = false;
    ctx = await start(async (job) => {
      if (job.name === 'stuck') {
        started = true;
        await new Promise(() => undefined);
      }
      throw new Error('try again later');
    }, 100);
    await ctx.queue.add(QUEUE, 'stuck', {});
    await ctx.queue.add(QUEUE, 'retried', {}, { backoffMs: 60_000 });
    await waitFor('the stuck job to start', () => started);
    await waitFor('the retry to be scheduled', () => logs.text().includes('retrying in 60000 ms'));

    const closing = Date.now();
    const app = ctx;
    ctx = undefined;
    await app.close();
    expect(Date.now() - closing).toBeLessThan(2000);
    expect(logs.text()).toContain('1 waiting job(s) dropped at shutdown');
    expect(logs.text()).toContain('1 job(s) still running after 100 ms: not waiting longer');

    await app.queue.add(QUEUE, 'late', {});
    expect(logs.text()).toMatch(/Job chores\/late \(.+\) dropped: the app is shutting down/);
  });
});
