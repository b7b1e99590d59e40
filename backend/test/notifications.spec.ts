import {
  API,
  LIVE_EVENT,
  MENTIONS_PER_POST_MAX,
  MESSAGING_MESSAGES,
  type Notification,
  NOTIFICATIONS_PAGE_SIZE,
  type NotificationsPage,
  notificationSchema,
  notificationsPageSchema,
  publicAuthorSchema,
  unreadCountResultSchema,
} from '@termpaste/contracts';
import { EventsPort, type LiveEnvelope } from '../src/infra/events/events.port.js';
import { OutboxRelay } from '../src/infra/outbox/outbox.relay.js';
import { OutboxService } from '../src/infra/outbox/outbox.service.js';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import { NotificationsProcessor } from '../src/modules/notifications/notifications.processor.js';
import { notificationJob, NOTIFICATIONS_QUEUE } from '../src/modules/notifications/notifications.queue.js';
import { QUEUE_NAMES } from '../src/queues.js';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const NOTIFICATION_NOT_FOUND = { statusCode: 404, message: MESSAGING_MESSAGES.notificationNotFound };

type Member = Awaited<ReturnType<typeof registered>>;

interface Row {
  id: number;
  user_id: number;
  type: string;
  content: string;
  thread_id: number | null;
  actor_id: number | null;
  source: string;
  is_read: boolean;
}

function parsePage(body: unknown): NotificationsPage {
  const page = notificationsPageSchema.strict().parse(body);
  for (const item of (body as { notifications: unknown[] }).notifications) {
    const notification = notificationSchema.strict().parse(item);
    if (notification.actor) publicAuthorSchema.strict().parse(notification.actor);
  }
  return page;
}

describe('notifications', () => {
  let t: TestApp;
  let admin: Member;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  let processor: NotificationsProcessor;
  let jobRuns = 0;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registered(t); // the first account: owner and admin
    alice = await registered(t);
    bob = await registered(t);
    carol = await registered(t);
    processor = t.app.get(NotificationsProcessor);
  });

  afterAll(async () => {
    await t.close();
  });

  afterEach(() => {
    // No job may have failed, whatever the test did.
    const failures = t.logs.entries.filter((e) => e.level === 'error');
    expect(failures.map((e) => e.message)).toEqual([]);
  });

  /** Runs a notification job directly (as a worker would), e.g. a second time. */
  function runJob(name: 'thread' | 'reply' | 'message', data: object): Promise<void> {
    return processor.process({ id: `test-${jobRuns++}`, name, data, attemptsMade: 0 });
  }

  async function paste(browser: Browser, title = 'A paste', content = 'Some content'): Promise<number> {
    const res = await browser.post(API.threads).send({ title, content }).expect(201);
    return (res.body as { id: number }).id;
  }

  async function reply(browser: Browser, threadId: number, content = 'A reply', parentId?: number) {
    const res = await browser.post(API.threadReplies(threadId)).send({ content, parentId }).expect(201);
    return (res.body as { id: number }).id;
  }

  async function rows(where: string, params: unknown[]): Promise<Row[]> {
    return t.dataSource.query(`SELECT * FROM notifications WHERE ${where} ORDER BY id`, params);
  }

  const ofSource = (source: string) => rows('source = $1', [source]);
  const ofUser = (userId: number) => rows('user_id = $1', [userId]);
  /** Waits until the queue has made the notifications of `source`, and returns them. */
  const notified = (what: string, source: string) =>
    waitFor(what, async () => {
      const found = await ofSource(source);
      return found.length > 0 && found;
    });

  async function counter(userId: number): Promise<number | undefined> {
    const [row] = await t.dataSource.query('SELECT unread FROM notification_counters WHERE user_id = $1', [
      userId,
    ]);
    return (row as { unread: number } | undefined)?.unread;
  }

  async function unreadInTable(userId: number): Promise<number> {
    const [row] = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND NOT is_read',
      [userId],
    );
    return (row as { n: number }).n;
  }

  async function unreadCount(browser: Browser): Promise<number> {
    const res = await browser.get(API.notificationsUnreadCount).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return JSON.parse(res.text) as number;
  }

  async function list(browser: Browser, cursor?: string): Promise<NotificationsPage> {
    const res = await browser
      .get(API.notifications)
      .query(cursor ? { cursor } : {})
      .expect(200);
    return parsePage(res.body);
  }

  /** Members inserted directly (fast: no password hashing); they cannot sign in. */
  async function insertUsers(usernames: string[]): Promise<number[]> {
    const inserted: Array<{ id: number }> = await t.dataSource.query(
      `INSERT INTO users (username, email, password_hash)
       SELECT u, u || '@example.com', 'not-a-hash' FROM unnest($1::text[]) AS u RETURNING id`,
      [usernames],
    );
    return inserted.map((r) => r.id);
  }

  /** A reply written directly: no job queued for it. */
  async function insertReply(threadId: number, authorId: number, content: string): Promise<number> {
    const [row] = await t.dataSource.query(
      'INSERT INTO replies (thread_id, author_id, content) VALUES ($1, $2, $3) RETURNING id',
      [threadId, authorId, content],
    );
    return (row as { id: number }).id;
  }

  const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(jobRuns++).toString(36)}`;

  it('has its queue registered', () => {
    expect(QUEUE_NAMES).toContain(NOTIFICATIONS_QUEUE);
  });

  describe('a reply', () => {
    it('notifies the paste’s author through the queue', async () => {
      const threadId = await paste(alice.browser, 'My "quoted" paste');
      const replyId = await reply(bob.browser, threadId, 'Nice one');
      const [row] = await notified('the notification', `reply:${replyId}`);
      expect(row).toMatchObject({
        user_id: alice.user.id,
        type: 'reply',
        content: `${bob.account.username} replied to your paste "My "quoted" paste"`,
        thread_id: threadId,
        actor_id: bob.user.id,
        is_read: false,
      });
      const page = await list(alice.browser);
      const listed = page.notifications.find((n) => n.id === row!.id);
      expect(listed).toEqual({
        id: row!.id,
        type: 'reply',
        content: row!.content,
        isRead: false,
        createdAt: expect.any(String),
        threadId,
        actor: expect.objectContaining({ id: bob.user.id, username: bob.account.username }),
      });
      expect(page.notifications[0]!.id).toBe(row!.id);
    });

    it('notifies the author of the reply it answers, and the paste’s author', async () => {
      const threadId = await paste(alice.browser, 'Nested');
      const parentId = await reply(bob.browser, threadId, 'first');
      const replyId = await reply(carol.browser, threadId, 'answer', parentId);
      await runJob('reply', { replyId });
      expect((await ofSource(`reply:${replyId}`)).map((r) => [r.user_id, r.type, r.content])).toEqual([
        [bob.user.id, 'reply', `${carol.account.username} replied to your reply in "Nested"`],
        [alice.user.id, 'reply', `${carol.account.username} replied to your paste "Nested"`],
      ]);
    });

    it('never notifies its own author', async () => {
      const own = await paste(alice.browser, 'Own');
      const selfReply = await reply(alice.browser, own, `talking to myself @${alice.account.username}`);
      await runJob('reply', { replyId: selfReply });
      expect(await ofSource(`reply:${selfReply}`)).toEqual([]);

      const others = await paste(bob.browser, 'Others');
      const parentId = await reply(alice.browser, others, 'mine');
      const answer = await reply(alice.browser, others, 'mine again', parentId);
      await runJob('reply', { replyId: answer });
      expect((await ofSource(`reply:${answer}`)).map((r) => r.user_id)).toEqual([bob.user.id]);
    });

    it('notifies a paste author who also wrote the reply answered once', async () => {
      const threadId = await paste(alice.browser, 'Once');
      const parentId = await reply(alice.browser, threadId, 'my own reply');
      const replyId = await reply(bob.browser, threadId, `answer to @${alice.account.username}`, parentId);
      await runJob('reply', { replyId });
      const found = await ofSource(`reply:${replyId}`);
      expect(found.map((r) => [r.user_id, r.type, r.content])).toEqual([
        [alice.user.id, 'reply', `${bob.account.username} replied to your reply in "Once"`],
      ]);
    });

    it('does nothing when its author’s account is gone', async () => {
      const threadId = await paste(alice.browser, 'Ghost reply');
      const [ghostId] = await insertUsers([unique('ghost')]);
      const replyId = await insertReply(threadId, ghostId!, 'boo');
      await t.dataSource.query('DELETE FROM users WHERE id = $1', [ghostId]);
      await runJob('reply', { replyId });
      expect(await ofSource(`reply:${replyId}`)).toEqual([]);
    });
  });

  describe('mentions', () => {
    it('notify existing members named in a paste, once each, not in code, not in e-mail addresses', async () => {
      const dave = await registered(t);
      const content = [
        `Hey @${bob.account.username.toUpperCase()} and @${bob.account.username}, also @no_such_member_x.`,
        `Not code: \`@${carol.account.username}\`, not mail: ${dave.account.email}`,
        '```',
        `@${dave.account.username}`,
        '```',
        `And myself @${alice.account.username}, a link's address [docs](https://example.com/@${carol.account.username})`,
        '',
        `    @${dave.account.username} in indented code`,
      ].join('\n');
      const threadId = await paste(alice.browser, 'Shout-out', content);
      const [row] = await notified('the mention', `thread:${threadId}`);
      await runJob('thread', { threadId });
      expect(await ofSource(`thread:${threadId}`)).toEqual([
        expect.objectContaining({
          user_id: bob.user.id,
          type: 'mention',
          content: `${alice.account.username} mentioned you in "Shout-out"`,
          thread_id: threadId,
          actor_id: alice.user.id,
        }),
      ]);
      expect(row!.user_id).toBe(bob.user.id);
    });

    it('in a reply: a member replied to and mentioned gets only the reply one', async () => {
      const threadId = await paste(alice.browser, 'Both');
      const replyId = await reply(
        bob.browser,
        threadId,
        `cc @${alice.account.username} @${carol.account.username} @${carol.account.username}`,
      );
      await runJob('reply', { replyId });
      expect((await ofSource(`reply:${replyId}`)).map((r) => [r.user_id, r.type, r.content])).toEqual([
        [alice.user.id, 'reply', `${bob.account.username} replied to your paste "Both"`],
        [carol.user.id, 'mention', `${bob.account.username} mentioned you in "Both"`],
      ]);
    });

    it(`reach at most ${MENTIONS_PER_POST_MAX} members per post, the first named`, async () => {
      const names = Array.from({ length: MENTIONS_PER_POST_MAX + 5 }, (_, i) => unique(`m${i}`));
      const ids = await insertUsers(names);
      const threadId = await paste(alice.browser, 'Crowd', names.map((n) => `@${n}`).join(' '));
      await runJob('thread', { threadId });
      const found = await ofSource(`thread:${threadId}`);
      expect(found.map((r) => r.user_id)).toEqual(ids.slice(0, MENTIONS_PER_POST_MAX));
    });
  });

  describe('a private message', () => {
    it('notifies its recipient', async () => {
      const res = await alice.browser
        .post(API.messages)
        .send({ recipientEmail: carol.account.username, subject: 'Lunch?', content: 'At noon' })
        .expect(201);
      const messageId = (res.body as { id: number }).id;
      const [row] = await notified('the notification', `message:${messageId}`);
      expect(row).toMatchObject({
        user_id: carol.user.id,
        type: 'message',
        content: `${alice.account.username} sent you a message: "Lunch?"`,
        thread_id: null,
        actor_id: alice.user.id,
      });
    });

    it('is read when its recipient opens the message, and the count goes down', async () => {
      const res = await alice.browser
        .post(API.messages)
        .send({ recipientEmail: carol.account.username, subject: 'Open me', content: 'Hi' })
        .expect(201);
      const messageId = (res.body as { id: number }).id;
      await waitFor('the notification', async () => (await ofSource(`message:${messageId}`)).length > 0);
      const before = await unreadCount(carol.browser);
      await carol.browser.patch(API.messageRead(messageId)).expect(200);
      expect((await ofSource(`message:${messageId}`))[0]).toMatchObject({ is_read: true });
      expect(await unreadCount(carol.browser)).toBe(before - 1);
      expect(await counter(carol.user.id)).toBe(await unreadInTable(carol.user.id));
      // Opening it again changes nothing.
      await carol.browser.patch(API.messageRead(messageId)).expect(200);
      expect(await unreadCount(carol.browser)).toBe(before - 1);
    });

    it('makes no notification when the message was opened before the job ran', async () => {
      const [row]: Array<{ id: number }> = await t.dataSource.query(
        `INSERT INTO private_messages (sender_id, recipient_id, subject, content, is_read)
         VALUES ($1, $2, 'Seen', 'already', true) RETURNING id`,
        [alice.user.id, carol.user.id],
      );
      await runJob('message', { messageId: row!.id });
      expect(await ofSource(`message:${row!.id}`)).toEqual([]);
    });
  });

  describe('jobs', () => {
    it('create nothing new when run twice, or enqueued twice', async () => {
      const threadId = await paste(alice.browser, 'Twice', `@${carol.account.username}`);
      const replyId = await reply(bob.browser, threadId, `@${carol.account.username}`);
      await runJob('reply', { replyId });
      await runJob('thread', { threadId });
      const before = { alice: await counter(alice.user.id), carol: await counter(carol.user.id) };
      const replyRows = await ofSource(`reply:${replyId}`);
      const threadRows = await ofSource(`thread:${threadId}`);
      expect(replyRows).toHaveLength(2);
      expect(threadRows).toHaveLength(1);

      await Promise.all([
        runJob('reply', { replyId }),
        runJob('reply', { replyId }),
        runJob('thread', { threadId }),
      ]);
      // The same job twice through the outbox (a resend): one job id, and a job that changes nothing.
      const outbox = t.app.get(OutboxService);
      await t.dataSource.transaction(async (manager) => {
        await outbox.add(manager, notificationJob('reply', replyId));
        await outbox.add(manager, notificationJob('reply', replyId));
      });
      outbox.committed();
      await waitFor('the outbox to be relayed and its jobs run', async () => {
        const [row] = await t.dataSource.query('SELECT count(*)::int AS n FROM outbox');
        return (row as { n: number }).n === 0;
      });
      await runJob('reply', { replyId });

      expect(await ofSource(`reply:${replyId}`)).toEqual(replyRows);
      expect(await ofSource(`thread:${threadId}`)).toEqual(threadRows);
      expect({ alice: await counter(alice.user.id), carol: await counter(carol.user.id) }).toEqual(before);
    });

    it('do nothing, without failing, when the source is gone', async () => {
      // Written directly, so that no job was queued for them.
      const [thread] = await t.dataSource.query(
        'INSERT INTO threads (title, content, author_id) VALUES ($1, $2, $3) RETURNING id',
        ['Doomed', `@${bob.account.username}`, alice.user.id],
      );
      const threadId = (thread as { id: number }).id;
      const replyId = await insertReply(threadId, bob.user.id, `@${carol.account.username}`);
      const [message] = await t.dataSource.query(
        `INSERT INTO private_messages (sender_id, recipient_id, subject, content)
         VALUES ($1, $2, 'gone', 'soon') RETURNING id`,
        [alice.user.id, bob.user.id],
      );
      const messageId = (message as { id: number }).id;
      await t.dataSource.query('DELETE FROM threads WHERE id = $1', [threadId]);
      await t.dataSource.query('DELETE FROM private_messages WHERE id = $1', [messageId]);
      await runJob('thread', { threadId });
      await runJob('reply', { replyId });
      await runJob('message', { messageId });
      await runJob('message', { messageId: 2_000_000_000 });
      expect(await ofSource(`thread:${threadId}`)).toEqual([]);
      expect(await ofSource(`reply:${replyId}`)).toEqual([]);
      expect(await ofSource(`message:${messageId}`)).toEqual([]);
    });

    it('refuse data without a valid id and unknown job names (a programming error)', async () => {
      await expect(runJob('reply', {})).rejects.toThrow('replyId');
      await expect(runJob('thread', { threadId: '1' })).rejects.toThrow('threadId');
      await expect(processor.process({ id: 'x', name: 'nope', data: {}, attemptsMade: 0 })).rejects.toThrow(
        'Unknown job',
      );
    });

    it('queue only the watchers’ job for a paste that mentions nobody', async () => {
      const queue = t.app.get(QueuePort);
      const add = queue.add.bind(queue);
      const calls: unknown[][] = [];
      queue.add = (...args: Parameters<QueuePort['add']>) => {
        calls.push(args);
        return add(...args);
      };
      try {
        const nobody = await paste(alice.browser, 'Nobody', 'no mention at all');
        const either = await paste(
          alice.browser,
          'Nobody either',
          `mail ${bob.account.email}, code \`@${bob.account.username}\``,
        );
        await t.app.get(OutboxRelay).idle();
        // Its author's followers and its tags' watchers may hear of it: a 'paste' job, no mention.
        expect(calls).toEqual([
          [NOTIFICATIONS_QUEUE, 'paste', { threadId: nobody }, { jobId: `paste-${nobody}` }],
          [NOTIFICATIONS_QUEUE, 'paste', { threadId: either }, { jobId: `paste-${either}` }],
        ]);
        calls.length = 0;
        const threadId = await paste(alice.browser, 'Somebody', `hi @${carol.account.username}`);
        await waitFor('the job to be queued', () => calls.length > 0);
        expect(calls).toEqual([
          [NOTIFICATIONS_QUEUE, 'thread', { threadId }, { jobId: `thread-${threadId}` }],
        ]);
        await notified('the mention', `thread:${threadId}`);
      } finally {
        delete (queue as Partial<QueuePort>).add;
      }
    });

    it('are written with the post and queued once it commits; a queue that refuses one is retried', async () => {
      const queue = t.app.get(QueuePort);
      const calls: unknown[][] = [];
      // The queue refuses the next job (a programming error, say); then takes them again.
      queue.add = async (...args: unknown[]) => {
        calls.push(args);
        delete (queue as Partial<QueuePort>).add; // back to the prototype's
        throw new Error('queue is down');
      };
      let threadId: number;
      try {
        threadId = await paste(alice.browser, 'Queue down', `@${bob.account.username}`);
        await t.http.get(API.thread(threadId)).expect(200);
        await waitFor('the job to be offered', () => calls.length > 0);
        expect(calls).toEqual([
          [NOTIFICATIONS_QUEUE, 'thread', { threadId }, { jobId: `thread-${threadId}` }],
        ]);
      } finally {
        delete (queue as Partial<QueuePort>).add;
      }
      // Still in the outbox, retried at the relay's next poll.
      await notified('the mention, once the queue takes jobs again', `thread:${threadId}`);
      const logged = t.logs.entries.filter((e) => e.level === 'error');
      expect(logged.map((e) => e.message)).toEqual([
        'Jobs could not be queued; they stay in the outbox, retried every 1000 ms: queue is down',
      ]);
      await waitFor('the relay to say so', () => t.logs.text().includes('Jobs are queued again'));
      t.logs.entries.splice(0, t.logs.entries.length); // expected: not a failure for afterEach
    });
  });

  describe('the unread count', () => {
    it('is a bare number, 0 for a member who never had a notification', async () => {
      const fresh = await registered(t);
      const res = await fresh.browser.get(API.notificationsUnreadCount).expect(200);
      expect(res.text).toBe('0');
      expect(await list(fresh.browser)).toEqual({ notifications: [], nextCursor: null, unreadCount: 0 });
    });

    it('follows creation, reading one (idempotent) and marking all read', async () => {
      const erin = await registered(t);
      const threadId = await paste(erin.browser, 'Counted');
      const replyIds = [
        await reply(alice.browser, threadId),
        await reply(bob.browser, threadId),
        await reply(carol.browser, threadId),
      ];
      await waitFor('three notifications', async () => (await counter(erin.user.id)) === 3);
      for (const replyId of replyIds) await runJob('reply', { replyId });
      expect(await unreadCount(erin.browser)).toBe(3);
      const page = await list(erin.browser);
      expect(page.unreadCount).toBe(3);
      expect(page.notifications.map((n) => n.isRead)).toEqual([false, false, false]);

      const target = page.notifications[1]!;
      const read = await erin.browser.patch(API.notificationRead(target.id)).expect(200);
      expect(unreadCountResultSchema.strict().parse(read.body)).toEqual({ unreadCount: 2 });
      await erin.browser.patch(API.notificationRead(target.id)).expect(200, { unreadCount: 2 });
      expect(await unreadCount(erin.browser)).toBe(2);
      expect((await list(erin.browser)).notifications.find((n) => n.id === target.id)?.isRead).toBe(true);

      await erin.browser.post(API.notificationsMarkAllRead).expect(200, { unreadCount: 0 });
      await erin.browser.post(API.notificationsMarkAllRead).expect(200, { unreadCount: 0 });
      expect(await unreadCount(erin.browser)).toBe(0);
      expect((await list(erin.browser)).notifications.every((n) => n.isRead)).toBe(true);

      await reply(alice.browser, threadId, 'one more');
      await waitFor('the next notification', async () => (await counter(erin.user.id)) === 1);
      expect(await unreadCount(erin.browser)).toBe(1);
    });

    it('stays right when notifications arrive while the member reads them', async () => {
      const fiona = await registered(t);
      const threadId = await paste(fiona.browser, 'Busy');
      const repliers = await insertUsers(Array.from({ length: 24 }, (_, i) => unique(`r${i}`)));
      const replyIds: number[] = [];
      for (const authorId of repliers) {
        replyIds.push(await insertReply(threadId, authorId, `hello @${fiona.account.username}`));
      }
      const work: Array<Promise<unknown>> = [];
      replyIds.forEach((replyId, i) => {
        work.push(runJob('reply', { replyId }));
        if (i % 4 === 0) work.push(fiona.browser.post(API.notificationsMarkAllRead).expect(200));
        if (i % 6 === 0) work.push(runJob('reply', { replyId }));
      });
      await Promise.all(work);
      const unread = await unreadInTable(fiona.user.id);
      expect(await counter(fiona.user.id)).toBe(unread);
      expect(await unreadCount(fiona.browser)).toBe(unread);
      expect(await ofUser(fiona.user.id)).toHaveLength(24);

      // And reading them one by one, concurrently, ends at exactly zero.
      const all = await ofUser(fiona.user.id);
      await Promise.all(all.map((n) => fiona.browser.patch(API.notificationRead(n.id)).expect(200)));
      expect(await counter(fiona.user.id)).toBe(0);
      expect(await unreadInTable(fiona.user.id)).toBe(0);
    });
  });

  describe('reading is for the owner only', () => {
    it('is a 404 for another member’s notification, whose count stays', async () => {
      const threadId = await paste(bob.browser, 'Bob’s');
      const replyId = await reply(alice.browser, threadId);
      await runJob('reply', { replyId });
      const [bobs] = await ofSource(`reply:${replyId}`);
      const bobCount = await counter(bob.user.id);
      expect(bobCount).toBeGreaterThan(0);

      await carol.browser.patch(API.notificationRead(bobs!.id)).expect(404, NOTIFICATION_NOT_FOUND);
      await carol.browser.post(API.notificationsMarkAllRead).expect(200, { unreadCount: 0 });
      expect(await counter(bob.user.id)).toBe(bobCount);
      expect((await ofSource(`reply:${replyId}`))[0]!.is_read).toBe(false);
      expect((await list(carol.browser)).notifications.map((n) => n.id)).not.toContain(bobs!.id);
    });

    it.each(['999999', 'abc', '0', '-5', '99999999999', '1e3'])('is a 404 for id %s', async (id) => {
      await alice.browser.patch(API.notificationRead(id)).expect(404, NOTIFICATION_NOT_FOUND);
    });
  });

  describe('signed out', () => {
    it.each([
      ['GET', API.notifications],
      ['GET', API.notificationsUnreadCount],
      ['PATCH', API.notificationRead(1)],
      ['PATCH', API.notificationRead('x')],
      ['POST', API.notificationsMarkAllRead],
    ])('%s %s is a 401, for a visitor and for a banned member', async (method, path) => {
      const banned = await registered(t);
      await t.dataSource.query('UPDATE users SET is_banned = true WHERE id = $1', [banned.user.id]);
      for (const browser of [t.browser(), banned.browser]) {
        const req =
          method === 'GET' ? browser.get(path) : method === 'POST' ? browser.post(path) : browser.patch(path);
        await req.expect(401, UNAUTHORIZED);
      }
    });
  });

  describe('the list', () => {
    it(`pages newest first, ${NOTIFICATIONS_PAGE_SIZE} at a time; unreadCount counts them all`, async () => {
      const gail = await registered(t);
      const total = NOTIFICATIONS_PAGE_SIZE * 2 + 3;
      const inserted: Array<{ id: number }> = await t.dataSource.query(
        `INSERT INTO notifications (user_id, type, content, source, actor_id, created_at)
         SELECT $1, 'reply', 'n' || n, 'test:' || n, $2,
           '2030-01-01T00:00:00Z'::timestamptz + (n / 10) * interval '1 second'
         FROM generate_series(1, $3::int) n RETURNING id`,
        [gail.user.id, alice.user.id, total],
      );
      await t.dataSource.query('INSERT INTO notification_counters (user_id, unread) VALUES ($1, $2)', [
        gail.user.id,
        total,
      ]);
      const seen: Notification[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await list(gail.browser, cursor);
        expect(page.unreadCount).toBe(total);
        expect(page.notifications.length).toBeLessThanOrEqual(NOTIFICATIONS_PAGE_SIZE);
        seen.push(...page.notifications);
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen.map((n) => n.id)).toEqual(inserted.map((r) => r.id).reverse());
      expect(seen[0]!.actor).toMatchObject({ id: alice.user.id });
    });

    it.each(['garbage', Buffer.from('1:99999999999').toString('base64url'), '\0'])(
      'is a 400 for the bad cursor %j',
      async (cursor) => {
        await alice.browser
          .get(API.notifications)
          .query({ cursor })
          .expect(400, { statusCode: 400, message: 'Invalid cursor' });
      },
    );

    it('keeps a notification whose paste was deleted, with threadId null', async () => {
      const threadId = await paste(alice.browser, 'Soon gone');
      const replyId = await reply(bob.browser, threadId);
      await runJob('reply', { replyId });
      const [row] = await ofSource(`reply:${replyId}`);
      await admin.browser.delete(API.adminThread(threadId)).expect(200);
      const listed = (await list(alice.browser)).notifications.find((n) => n.id === row!.id);
      expect(listed).toMatchObject({ threadId: null, content: row!.content, type: 'reply' });
    });
  });

  describe('live events', () => {
    it('go to the member concerned only: the notification, then the unread count', async () => {
      const seen: LiveEnvelope[] = [];
      const unsubscribe = t.app.get(EventsPort).subscribe((envelope) => seen.push(envelope));
      try {
        const hugo = await registered(t);
        const threadId = await paste(hugo.browser, 'Live');
        await hugo.browser.post(API.notificationsMarkAllRead).expect(200);
        seen.length = 0;
        const replyId = await reply(bob.browser, threadId, 'live reply');
        await waitFor(
          'two events',
          () => seen.filter((e) => e.to === 'user' && e.userId === hugo.user.id).length >= 2,
        );
        const [row] = await ofSource(`reply:${replyId}`);
        const forHugo = seen.filter((e) => e.to === 'user' && e.userId === hugo.user.id);
        expect(forHugo.map((e) => e.event)).toEqual([
          {
            type: LIVE_EVENT.notification,
            notification: {
              id: row!.id,
              type: 'reply',
              content: row!.content,
              isRead: false,
              createdAt: expect.any(String),
              threadId,
              actor: expect.objectContaining({ id: bob.user.id }),
            },
          },
          { type: LIVE_EVENT.unreadCount, count: 1 },
        ]);
        // Nobody else hears of this reply.
        expect(
          seen.filter(
            (e) =>
              !(e.to === 'user' && e.userId === hugo.user.id) &&
              e.event.type === LIVE_EVENT.notification &&
              e.event.notification.threadId === threadId,
          ),
        ).toEqual([]);

        const forHugoOnly = () => seen.filter((e) => e.to === 'user' && e.userId === hugo.user.id);
        const zero = { to: 'user', userId: hugo.user.id, event: { type: LIVE_EVENT.unreadCount, count: 0 } };
        seen.length = 0;
        await hugo.browser.patch(API.notificationRead(row!.id)).expect(200, { unreadCount: 0 });
        await waitFor('the read count', () => forHugoOnly().length >= 1);
        expect(forHugoOnly()).toEqual([zero]);

        seen.length = 0;
        await hugo.browser.post(API.notificationsMarkAllRead).expect(200);
        await waitFor('the mark-all count', () => forHugoOnly().length >= 1);
        expect(forHugoOnly()).toEqual([zero]);
      } finally {
        unsubscribe();
      }
    });

    it('a message sends the message and its notification to the recipient', async () => {
      const seen: LiveEnvelope[] = [];
      const unsubscribe = t.app.get(EventsPort).subscribe((envelope) => seen.push(envelope));
      try {
        const ida = await registered(t);
        await alice.browser
          .post(API.messages)
          .send({ recipientEmail: ida.account.email, subject: 'Ping', content: 'pong?' })
          .expect(201);
        const forIda = () => seen.filter((e) => e.to === 'user' && e.userId === ida.user.id);
        await waitFor('three events', () => forIda().length >= 3);
        expect(seen.filter((e) => e.event.type === LIVE_EVENT.privateMessage)).toHaveLength(1);
        expect(
          forIda()
            .map((e) => e.event.type)
            .sort(),
        ).toEqual([LIVE_EVENT.privateMessage, LIVE_EVENT.notification, LIVE_EVENT.unreadCount].sort());
      } finally {
        unsubscribe();
      }
    });
  });
});
