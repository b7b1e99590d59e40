import { API } from '@termpaste/contracts';
import { OutboxRelay } from '../src/infra/outbox/outbox.relay.js';
import { OutboxService } from '../src/infra/outbox/outbox.service.js';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import { notificationJob } from '../src/modules/notifications/notifications.queue.js';
import { registered } from './support/accounts.js';
import { createTestDatabase, type TestDatabase } from './support/postgres.js';
import { describeWithRedis, type RedisHandle, redisCommand, startRedis } from './support/redis.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

/** Records the jobs `t`'s queue is given (and lets `refuse` turn some down), then adds them. */
function recordAdds(t: TestApp, refuse: (jobId: string) => boolean = () => false): string[] {
  const queue = t.app.get(QueuePort);
  const add = queue.add.bind(queue);
  const jobIds: string[] = [];
  queue.add = async (...args: Parameters<QueuePort['add']>) => {
    const jobId = args[3]!.jobId!;
    jobIds.push(jobId);
    if (refuse(jobId)) throw new Error(`refused ${jobId}`);
    return add(...args);
  };
  return jobIds;
}

const outboxCount = async (t: TestApp): Promise<number> =>
  ((await t.dataSource.query('SELECT count(*)::int AS n FROM outbox')) as Array<{ n: number }>)[0]!.n;

describeWithRedis('outbox (BullMQ on Redis)', () => {
  let redis: RedisHandle;

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  describe('two API instances on one database, PROCESS_JOBS=off', () => {
    let database: TestDatabase;
    let apis: TestApp[] = [];

    beforeAll(async () => {
      database = await createTestDatabase();
      const env = { REDIS_URL: redis.url, PROCESS_JOBS: 'off' };
      apis = [await createTestApp({ database, env }), await createTestApp({ database, env })];
    });

    afterAll(async () => {
      for (const api of apis) await api.close();
      await database?.drop();
    });

    afterEach(async () => {
      await redisCommand(redis.port, 'FLUSHALL');
      for (const api of apis) delete (api.app.get(QueuePort) as Partial<QueuePort>).add;
    });

    it('send each row once between them (each pass locks its batch, FOR UPDATE SKIP LOCKED)', async () => {
      const relays = apis.map((api) => api.app.get(OutboxRelay));
      for (const relay of relays) await relay.beforeApplicationShutdown();
      const count = 700;
      await apis[0]!.dataSource.transaction(async (manager) => {
        const outbox = apis[0]!.app.get(OutboxService);
        for (let i = 1; i <= count; i++) await outbox.add(manager, notificationJob('reply', 1_000_000 + i));
      });
      const sent = apis.map((api) => recordAdds(api));

      for (const relay of relays) relay.onApplicationBootstrap();
      await waitFor('the outbox to be emptied', async () => (await outboxCount(apis[0]!)) === 0);
      for (const relay of relays) await relay.idle();

      const all = sent.flat();
      expect(all).toHaveLength(count);
      expect(new Set(all).size).toBe(count);
      // Both took part: a batch is 200 rows, and neither waited for the other's.
      expect(sent.map((ids) => ids.length > 0)).toEqual([true, true]);
      expect(await redisCommand(redis.port, 'LLEN bull:notifications:wait')).toBe(`:${count}`);
    });

    it('keep the rows of the jobs the queue refused, send the others, and send those at the next poll', async () => {
      let refusals = 0;
      const sent = recordAdds(apis[0]!, (jobId) => jobId === 'reply-2000002' && refusals++ === 0);
      for (const api of apis.slice(1)) await api.app.get(OutboxRelay).beforeApplicationShutdown();
      const outbox = apis[0]!.app.get(OutboxService);
      await apis[0]!.dataSource.transaction(async (manager) => {
        for (const id of [2_000_001, 2_000_002, 2_000_003]) {
          await outbox.add(manager, notificationJob('reply', id));
        }
      });
      outbox.committed();
      await waitFor('the refused job to be offered again', () => sent.length === 4, 5000);
      await waitFor('the outbox to be emptied', async () => (await outboxCount(apis[0]!)) === 0);
      expect(sent).toEqual(['reply-2000001', 'reply-2000002', 'reply-2000003', 'reply-2000002']);
      // Nest's logger is global: the lines land in the app started last.
      const logs = apis.flatMap((api) => api.logs.entries);
      expect(logs.filter((e) => e.level === 'error').map((e) => e.message)).toEqual([
        'Jobs could not be queued; they stay in the outbox, retried every 1000 ms: refused reply-2000002',
      ]);
      expect(logs.map((e) => e.message)).toContain('Jobs are queued again');
      expect(await redisCommand(redis.port, 'LLEN bull:notifications:wait')).toBe(':3');
      for (const api of apis.slice(1)) api.app.get(OutboxRelay).onApplicationBootstrap();
    });
  });

  it('while Redis is down, stores the post and keeps its job in the outbox; once Redis is back, queues and runs it', async () => {
    const t = await createTestApp({ env: { REDIS_URL: redis.url } });
    try {
      const alice = await registered(t);
      const bob = await registered(t);
      const created = await alice.browser
        .post(API.threads)
        .send({ title: 'Redis restart', content: 'echo hi' })
        .expect(201);
      const threadId = (created.body as { id: number }).id;

      await redis.stop();
      const started = Date.now();
      const res = await bob.browser.post(API.threadReplies(threadId)).send({ content: 'Hello?' }).expect(201);
      // The write did not wait for the queue.
      expect(Date.now() - started).toBeLessThan(4000);
      const replyId = (res.body as { id: number }).id;
      await waitFor(
        'the relay to give up waiting for Redis',
        () => t.logs.text().includes('the queue did not take 1 job(s) within 5000 ms'),
        15_000,
      );
      expect(await outboxCount(t)).toBe(1);

      redis = await startRedis({ port: redis.port });
      const notified = await waitFor(
        'the notification',
        async () => {
          const found: unknown[] = await t.dataSource.query(
            'SELECT user_id FROM notifications WHERE source = $1',
            [`reply:${replyId}`],
          );
          return found.length > 0 && found;
        },
        20_000,
      );
      expect(notified).toEqual([{ user_id: alice.user.id }]);
      await waitFor('the outbox to be emptied', async () => (await outboxCount(t)) === 0);
      await waitFor('the relay to say so', () => t.logs.text().includes('Jobs are queued again'));
    } finally {
      await t.close();
    }
  }, 60_000);
});
