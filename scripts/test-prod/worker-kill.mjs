// A worker killed in the middle of a job: another takes the job up once its lock expires, and runs it to
// the end with no notification made twice.
import { backendRequire } from '../../harness/paths.mjs';
import { assert, waitFor } from '../../harness/wait.mjs';
import { JOB_LOCK_SECONDS, seconds } from './context.mjs';

const pg = backendRequire('pg');

export const workerKilledMidJob = {
  name: 'kill -9 the worker mid-job: after a restart the job completes, with no duplicate notification',
  async run(env) {
    const { alice, bob, mentioned, threadId, db, redisClient } = env;
    // A lock on one mentioned member's unread counter: the job makes the first notifications, then
    // waits for it in the middle of its fan-out, with the job active in Redis.
    const blocked = mentioned[2];
    const lock = new pg.Client({ connectionString: env.postgres.url });
    await lock.connect();
    let killedAt;
    let restartedAt;
    try {
      await lock.query('BEGIN');
      await lock.query(
        `INSERT INTO notification_counters (user_id) VALUES ($1)
           ON CONFLICT (user_id) DO UPDATE SET unread = notification_counters.unread`,
        [blocked.id],
      );
      const reply = await bob.expect(201, 'POST', `/api/threads/${threadId}/replies`, {
        content: `Thanks all: ${mentioned.map((member) => `@${member.username}`).join(' ')}`,
      });
      const source = `reply:${reply.json.id}`;
      const jobId = `reply-${reply.json.id}`;
      const count = async () =>
        Number(
          (await db.query('SELECT count(*) FROM notifications WHERE source = $1', [source])).rows[0].count,
        );
      const waiting = await waitFor('the job to wait on the lock mid-fan-out', async () => {
        const { rows } = await db.query(
          `SELECT pid FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND query LIKE '%notification_counters%' AND pid <> $1`,
          [lock.processID],
        );
        return rows.length === 1 && (await count()) === 3 && rows[0].pid;
      });
      assert((await redisClient.lpos('bull:notifications:active', jobId)) !== null, 'the job is not active');

      await env.worker.stop('SIGKILL');
      killedAt = Date.now();
      await waitFor(
        "PostgreSQL to drop the killed worker's connection (its transaction rolled back)",
        async () =>
          (await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [waiting])).rows.length === 0,
        10_000,
      );
      await lock.query('ROLLBACK');

      // BullMQ hands a dead worker's job to another once its lock expired (lockDuration) and two
      // stalled-job checks (stalledInterval; at most one a period across workers) saw it, both
      // JOB_LOCK_SECONDS here. Restarting once the dead worker's lock and its last check's mark are
      // gone makes that exactly two checks of the new worker: at its start, and one period later.
      await waitFor(
        "the dead worker's job lock and stalled-check mark to expire",
        async () =>
          (await redisClient.exists(
            `bull:notifications:${jobId}:lock`,
            'bull:notifications:stalled-check',
          )) === 0,
        40_000,
        250,
      );
      assert((await count()) === 3, 'notifications were made with the worker dead: an API ran the job');
      restartedAt = Date.now();
      env.worker = await env.newWorker();
      await waitFor(
        'the job to complete on the restarted worker',
        async () => (await count()) === 1 + mentioned.length,
        150_000,
        500,
      );
      // Two stalled-job checks, one period apart: JOB_LOCK_SECONDS, not BullMQ's 30 s, sets it.
      const takenUpAfter = Date.now() - restartedAt;
      assert(
        takenUpAfter < 4 * JOB_LOCK_SECONDS * 1000,
        `the restarted worker took ${seconds(takenUpAfter)} to finish the job (JOB_LOCK_SECONDS=${JOB_LOCK_SECONDS} not applied?)`,
      );
      const duplicates = await db.query(
        `SELECT user_id, source, count(*) FROM notifications GROUP BY user_id, source HAVING count(*) > 1`,
      );
      assert(duplicates.rows.length === 0, `duplicate notifications: ${JSON.stringify(duplicates.rows)}`);
      const counters = await db.query(
        `SELECT c.user_id, c.unread,
             (SELECT count(*)::int FROM notifications n WHERE n.user_id = c.user_id AND NOT n.is_read) AS actual
           FROM notification_counters c WHERE c.unread <> (SELECT count(*) FROM notifications n
             WHERE n.user_id = c.user_id AND NOT n.is_read)`,
      );
      assert(counters.rows.length === 0, `unread counters off: ${JSON.stringify(counters.rows)}`);
      for (const member of mentioned) {
        const page = await member.notifications();
        assert(
          page.notifications.length === 1 &&
            page.unreadCount === 1 &&
            page.notifications[0].type === 'mention',
          `${member.username} has ${JSON.stringify(page).slice(0, 300)}`,
        );
      }
      const alicePage = await alice.notifications();
      assert(
        alicePage.notifications.length === 2 && alicePage.unreadCount === 2,
        `alice has ${alicePage.notifications.length} notifications, ${alicePage.unreadCount} unread (not 2)`,
      );
      const job = await redisClient.hgetall(`bull:notifications:${jobId}`);
      assert(job.finishedOn && !job.failedReason, `the job did not complete: ${JSON.stringify(job)}`);
      return (
        `3 of 6 made before the kill; the worker restarted ${seconds(restartedAt - killedAt)} after it ` +
        `(lock expired), the rest made ${seconds(Date.now() - restartedAt)} after that, each once ` +
        `(job stalled ${job.stc ?? 0} time(s), then completed)`
      );
    } finally {
      await lock.end().catch(() => undefined);
    }
  },
};
