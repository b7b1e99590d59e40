import { API, type PrivateMessage } from '@termpaste/contracts';
import { outboxInsertSql } from '../src/infra/outbox/outbox.js';
import { OUTBOX_OPTIONS, type OutboxOptions } from '../src/infra/outbox/outbox.options.js';
import { OutboxRelay } from '../src/infra/outbox/outbox.relay.js';
import { OutboxService } from '../src/infra/outbox/outbox.service.js';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import {
  notificationJob,
  notificationJobId,
  NOTIFICATIONS_QUEUE,
} from '../src/modules/notifications/notifications.queue.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

type Member = Awaited<ReturnType<typeof registered>>;

interface Row {
  queue: string;
  name: string;
  data: unknown;
  job_id: string | null;
}

describe('outbox (in-process queue)', () => {
  let t: TestApp;
  let owner: Member;
  let alice: Member;
  let bob: Member;
  let relay: OutboxRelay;
  let outbox: OutboxService;
  let queue: QueuePort;
  let added: unknown[][];

  beforeAll(async () => {
    t = await createTestApp();
    owner = await registered(t); // the first account: owner (support requests go to staff)
    alice = await registered(t);
    bob = await registered(t);
    relay = t.app.get(OutboxRelay);
    outbox = t.app.get(OutboxService);
    queue = t.app.get(QueuePort);
    const add = queue.add.bind(queue);
    queue.add = (...args: Parameters<QueuePort['add']>) => {
      added.push(args);
      return add(...args);
    };
  });

  beforeEach(() => {
    added = [];
  });

  afterEach(async () => {
    // Whatever a test did, the relay runs again and leaves nothing behind.
    relay.onApplicationBootstrap();
    await waitFor('the outbox to be empty', async () => (await rows()).length === 0);
    const failures = t.logs.entries.filter((e) => e.level === 'error');
    expect(failures.map((e) => e.message)).toEqual([]);
  });

  afterAll(async () => {
    delete (queue as Partial<QueuePort>).add;
    await t.close();
  });

  const rows = (): Promise<Row[]> =>
    t.dataSource.query('SELECT queue, name, data, job_id FROM outbox ORDER BY id');

  async function paste(browser: Browser, content: string): Promise<number> {
    const res = await browser.post(API.threads).send({ title: 'Outbox', content }).expect(201);
    return (res.body as { id: number }).id;
  }

  async function reply(browser: Browser, threadId: number, content = 'A reply'): Promise<number> {
    const res = await browser.post(API.threadReplies(threadId)).send({ content }).expect(201);
    return (res.body as { id: number }).id;
  }

  async function message(browser: Browser, to: Member): Promise<number> {
    const res = await browser
      .post(API.messages)
      .send({ recipientEmail: to.account.username, subject: 'Hi', content: 'Hello' })
      .expect(201);
    return (res.body as PrivateMessage).id;
  }

  const notificationsOf = async (source: string): Promise<Array<{ user_id: number }>> =>
    t.dataSource.query('SELECT user_id FROM notifications WHERE source = $1', [source]);

  /** The outbox row `notificationJob` describes, as stored. */
  const rowOf = (kind: 'thread' | 'paste' | 'reply' | 'message', id: number): Row => {
    const job = notificationJob(kind, id);
    return { queue: job.queue, name: job.name, data: job.data, job_id: job.jobId! };
  };

  it('queues a job added in a transaction once that commits, and never one whose transaction rolled back', async () => {
    await relay.beforeApplicationShutdown(); // stopped: the rows stay where the test can see them
    await expect(
      t.dataSource.transaction(async (manager) => {
        await outbox.add(manager, notificationJob('reply', 2_000_000_001));
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await t.dataSource.transaction((manager) => outbox.add(manager, notificationJob('reply', 2_000_000_002)));
    // An id BullMQ would refuse fails the write, not the relay later.
    await expect(
      t.dataSource.transaction((manager) =>
        outbox.add(manager, { queue: NOTIFICATIONS_QUEUE, name: 'reply', data: {}, jobId: '42' }),
      ),
    ).rejects.toThrow('Invalid job id "42"');
    expect(await rows()).toEqual([rowOf('reply', 2_000_000_002)]);

    relay.onApplicationBootstrap();
    await waitFor('the job to be queued', () => added.length > 0);
    expect(added).toEqual([
      [NOTIFICATIONS_QUEUE, 'reply', { replyId: 2_000_000_002 }, { jobId: 'reply-2000000002' }],
    ]);
    // Without a jobId of its own, a job is queued under its row's.
    await relay.idle();
    added = [];
    await t.dataSource.transaction((manager) =>
      outbox.add(manager, { queue: NOTIFICATIONS_QUEUE, name: 'reply', data: { replyId: 2_000_000_003 } }),
    );
    outbox.committed();
    await waitFor('the job to be queued', () => added.length > 0);
    expect(added).toEqual([
      [
        NOTIFICATIONS_QUEUE,
        'reply',
        { replyId: 2_000_000_003 },
        { jobId: expect.stringMatching(/^outbox-\d+$/) },
      ],
    ]);
  });

  it('gets each post’s notification job in the post’s own write: paste (with a mention), reply, message, support request', async () => {
    await relay.beforeApplicationShutdown();
    const silent = await paste(alice.browser, 'mentions nobody, not even `@' + bob.account.username + '`');
    const threadId = await paste(alice.browser, `hey @${bob.account.username}`);
    const replyId = await reply(bob.browser, threadId);
    const messageId = await message(bob.browser, alice);
    await bob.browser.post(API.support).send({ subject: 'Help', content: 'Please' }).expect(201);
    const [support] = await t.dataSource.query(
      'SELECT id FROM private_messages WHERE sender_id = $1 AND recipient_id = $2 ORDER BY id DESC LIMIT 1',
      [bob.user.id, owner.user.id],
    );
    const supportId = (support as { id: number }).id;

    expect(await rows()).toEqual([
      // A paste that mentions nobody: its followers' and tags' watchers' job.
      rowOf('paste', silent),
      rowOf('thread', threadId),
      rowOf('reply', replyId),
      rowOf('message', messageId),
      rowOf('message', supportId),
    ]);
    expect(added).toEqual([]);
    expect(await notificationsOf(`thread:${silent}`)).toEqual([]);

    // Rows nobody relayed (a crash, a stopped relay) go out once a relay runs.
    relay.onApplicationBootstrap();
    // The queue runs its jobs side by side: each is waited for, not only the last one queued.
    const sources = [
      `thread:${threadId}`,
      `reply:${replyId}`,
      `message:${messageId}`,
      `message:${supportId}`,
    ];
    await waitFor('every notification', async () => {
      for (const source of sources) if ((await notificationsOf(source)).length === 0) return false;
      return true;
    });
    expect(await notificationsOf(`thread:${threadId}`)).toEqual([{ user_id: bob.user.id }]);
    expect(await notificationsOf(`reply:${replyId}`)).toEqual([{ user_id: alice.user.id }]);
    expect(await notificationsOf(`message:${messageId}`)).toEqual([{ user_id: alice.user.id }]);
    await waitFor('the outbox to be emptied', async () => (await rows()).length === 0);
    expect(added.map((call) => (call[3] as { jobId: string }).jobId)).toEqual([
      notificationJobId('paste', silent),
      notificationJobId('thread', threadId),
      notificationJobId('reply', replyId),
      notificationJobId('message', messageId),
      notificationJobId('message', supportId),
    ]);
  });

  it('is woken by the write’s commit: the job goes out without waiting for the poll', async () => {
    const options = t.app.get<OutboxOptions>(OUTBOX_OPTIONS);
    await relay.beforeApplicationShutdown();
    const pollMs = options.pollMs;
    options.pollMs = 3_600_000; // no poll during this test
    try {
      relay.onApplicationBootstrap();
      await relay.idle();
      const threadId = await paste(alice.browser, 'Woken');
      const replyId = await reply(bob.browser, threadId, `and @${owner.account.username}`);
      await waitFor(
        'the notifications',
        async () => (await notificationsOf(`reply:${replyId}`)).length === 2,
      );
    } finally {
      await relay.beforeApplicationShutdown();
      options.pollMs = pollMs;
    }
  });

  it('keeps a row until its job has run (the in-process queue keeps nothing), then deletes it', async () => {
    const threadId = await paste(alice.browser, 'Held');
    // A lock on alice's unread counter holds the job in the middle of its work.
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(
        `INSERT INTO notification_counters (user_id) VALUES ($1)
         ON CONFLICT (user_id) DO UPDATE SET unread = notification_counters.unread`,
        [alice.user.id],
      );
      const replyId = await reply(bob.browser, threadId);
      await waitFor('the job to be queued', () => added.length > 0);
      await waitFor('the job to wait on the lock', async () => {
        const waiting = await t.dataSource.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
        );
        return waiting.length > 0;
      });
      await relay.idle();
      expect(await rows()).toEqual([rowOf('reply', replyId)]);
      await runner.commitTransaction();
      await waitFor('the notification', async () => (await notificationsOf(`reply:${replyId}`)).length > 0);
      await waitFor('the row to go', async () => (await rows()).length === 0);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('writes a job in SQL only from names that are ours', () => {
    const jobId = { prefix: 'thread-', column: 'id' };
    const traceparent = '$5';
    expect(() =>
      outboxInsertSql('created', {
        queue: "x'; DROP TABLE users; --",
        name: 'n',
        data: {},
        jobId,
        traceparent,
      }),
    ).toThrow('Not a queue or job name');
    expect(() =>
      outboxInsertSql('created', {
        queue: 'q',
        name: 'n',
        data: { threadId: 'id); DROP TABLE users; --' },
        jobId,
        traceparent,
      }),
    ).toThrow('Not an SQL name');
    expect(() =>
      outboxInsertSql('created', { queue: 'q', name: 'n', data: {}, jobId, traceparent: "'x'" }),
    ).toThrow('Not a parameter');
    const insert = outboxInsertSql('created', {
      queue: 'notifications',
      name: 'thread',
      data: { threadId: 'id' },
      jobId,
      traceparent,
    });
    expect(insert.sql).toMatch(
      /^INSERT INTO outbox \(queue, name, data, job_id, traceparent\)\s+SELECT 'notifications', 'thread', jsonb_build_object\('threadId', id\), 'thread-' \|\| \(id\)::text, \$5::text\s+FROM created$/,
    );
    expect(insert.locks).toEqual([]);
  });
});
