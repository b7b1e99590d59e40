// Notifications are the worker's job: an API only enqueues them in Redis.
import { setTimeout as sleep } from 'node:timers/promises';
import { assert, waitFor } from '../../harness/wait.mjs';

export const replyViaWorker = {
  name: 'a reply notifies through the worker only: none while it is stopped, then it is made',
  async run(env) {
    const { alice, bob, threadId, redisClient } = env;
    await env.worker.stop('SIGTERM');
    const aliceLive = await alice.connect(env.pinned[1], '?scope=user');
    env.sockets.push(aliceLive);
    const reply = await bob.expect(201, 'POST', `/api/threads/${threadId}/replies`, {
      content: 'Nice paste!',
    });
    const jobId = `reply-${reply.json.id}`;
    await waitFor('the reply job to wait in Redis', () =>
      redisClient.lpos('bull:notifications:wait', jobId).then((at) => at !== null),
    );
    await sleep(2000);
    assert((await alice.notifications()).unreadCount === 0, 'a notification was made while no worker ran');
    assert(
      (await redisClient.lpos('bull:notifications:wait', jobId)) !== null,
      'the job left the wait list while no worker ran: an API processed it',
    );
    env.worker = await env.newWorker();
    const page = await waitFor('the notification', async () => {
      const list = await alice.notifications();
      return list.notifications.length === 1 && list;
    });
    assert(page.unreadCount === 1, `unread count ${page.unreadCount}, not 1`);
    assert(page.notifications[0].type === 'reply', `a ${page.notifications[0].type} notification`);
    assert(page.notifications[0].content.startsWith('bob replied'), `says ${page.notifications[0].content}`);
    await waitFor(
      "the live notification on alice's socket on api #2 (made by the worker, carried by Redis)",
      () => aliceLive.frames.some((frame) => frame.type === 'notification'),
      5000,
    );
    return `job ${jobId} waited in Redis for 2 s with no worker; the restarted worker made the notification`;
  },
};
