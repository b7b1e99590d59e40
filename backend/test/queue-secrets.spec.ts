import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import { API, PAGES } from '@termpaste/contracts';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { MAIL_QUEUE, SEND_LINK_JOB } from '../src/infra/mail/mail.service.js';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import { PasswordResetService } from '../src/modules/auth/password-reset.service.js';
import { registered, registeredUnverified } from './support/accounts.js';
import { parseMessage } from './support/eml.js';
import { describeWithRedis, type RedisHandle, startRedis } from './support/redis.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

/*
 * Reset links used to sit in the mail job's data (kept in Redis a day, or a week) while the token lived
 * an hour. Now a link mail is queued as ids and the worker mints the token: no token or link in any job's
 * data, log or dashboard. These apps run the real queued MailService.
 */

interface Added {
  queue: string;
  name: string;
  data: unknown;
}

/** Records what the app puts on its queue, passing it on. */
function recordQueue(t: TestApp): Added[] {
  const added: Added[] = [];
  const queue = t.app.get(QueuePort);
  const add = queue.add.bind(queue);
  queue.add = async (name, job, data, options) => {
    added.push({ queue: name, name: job, data: JSON.parse(JSON.stringify(data)) });
    return add(name, job, data, options);
  };
  return added;
}

/** The token of the newest mail to `to` in the outbox whose link goes to `page`. */
async function mailedToken(t: TestApp, to: string, page: string): Promise<string> {
  const dir = path.join(t.config.dataDir, 'outbox');
  return waitFor(`a mail to ${to} with a ${page} link`, async () => {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
    for (const name of names.sort().reverse()) {
      const message = parseMessage(await readFile(path.join(dir, name), 'utf8'));
      if (message.headers.get('to')?.toLowerCase() !== to.toLowerCase()) continue;
      const token = new RegExp(`${page}\\?token=([A-Za-z0-9_-]+)`).exec(message.body)?.[1];
      if (token) return token;
    }
    return undefined;
  });
}

/** Neither token, nor any link with a token; `links`: nor a link to either page at all. */
function expectNoSecret(haystack: string, tokens: string[], links = true): void {
  for (const token of tokens) expect(haystack).not.toContain(token);
  expect(haystack).not.toContain('token=');
  if (!links) return;
  expect(haystack).not.toContain(`${PAGES.resetPassword}?`);
  expect(haystack).not.toContain(`${PAGES.verifyEmail}?`);
}

describe('link mails on the in-process queue', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ queuedMail: true });
  });

  afterAll(async () => {
    await t.close();
  });

  it('queue ids only: the token is minted where the mail is written, and the links work', async () => {
    const added = recordQueue(t);
    const member = await registeredUnverified(t);
    const verifyToken = await mailedToken(t, member.account.email, PAGES.verifyEmail);
    await t.browser().post(API.forgotPassword).send({ email: member.account.email }).expect(200);
    await t.app.get(PasswordResetService).whenIdle();
    const resetToken = await mailedToken(t, member.account.email, PAGES.resetPassword);

    const links = added.filter((job) => job.queue === MAIL_QUEUE);
    expect(links).toEqual([
      {
        queue: MAIL_QUEUE,
        name: SEND_LINK_JOB,
        data: { kind: 'verify-email', userId: member.user.id, tokenId: expect.any(Number) },
      },
      {
        queue: MAIL_QUEUE,
        name: SEND_LINK_JOB,
        data: { kind: 'password-reset', userId: member.user.id, tokenId: expect.any(Number) },
      },
    ]);
    expectNoSecret(JSON.stringify(added), [verifyToken, resetToken]);
    expectNoSecret(t.logs.text(), [verifyToken, resetToken], false);

    await t.browser().post(API.verifyEmail).send({ token: verifyToken }).expect(200);
    await t
      .browser()
      .post(API.resetPassword)
      .send({ token: resetToken, newPassword: 'a whole new password' })
      .expect(200);
  });
});

describeWithRedis('link mails through BullMQ (Redis)', () => {
  let redis: RedisHandle;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startRedis();
    t = await createTestApp({ env: { REDIS_URL: redis.url }, queuedMail: true });
  });

  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  /** Every key in Redis with its value, whatever its type, as one text. */
  async function dumpRedis(): Promise<string> {
    const client = new Redis(redis.url);
    try {
      const parts: string[] = [];
      for (const key of await client.keys('*')) {
        const type = await client.type(key);
        const value =
          type === 'string'
            ? await client.get(key)
            : type === 'hash'
              ? await client.hgetall(key)
              : type === 'list'
                ? await client.lrange(key, 0, -1)
                : type === 'set'
                  ? await client.smembers(key)
                  : type === 'zset'
                    ? await client.zrange(key, '0', '-1')
                    : type === 'stream'
                      ? await client.xrange(key, '-', '+')
                      : `(${type})`;
        parts.push(`${key} ${JSON.stringify(value)}`);
      }
      return parts.join('\n');
    } finally {
      client.disconnect();
    }
  }

  it('keep no token or link in Redis, in the job data, the logs or the queue dashboard', async () => {
    const admin = await registered(t); // verified through the outbox; the first account, so the owner
    expect(admin.user.isAdmin).toBe(true);
    const member = await registeredUnverified(t);
    const verifyToken = await mailedToken(t, member.account.email, PAGES.verifyEmail);
    await t.browser().post(API.forgotPassword).send({ email: member.account.email }).expect(200);
    await t.app.get(PasswordResetService).whenIdle();
    const resetToken = await mailedToken(t, member.account.email, PAGES.resetPassword);

    const queue = t.app.get<Queue>(getQueueToken(MAIL_QUEUE), { strict: false });
    const [resetRow] = await t.dataSource.query('SELECT id FROM password_reset_tokens WHERE user_id = $1', [
      member.user.id,
    ]);
    await waitFor(
      'the reset job to complete',
      async () => (await queue.getJobState(`password-reset-${resetRow.id}`)) === 'completed',
    );
    const job = await queue.getJob(`password-reset-${resetRow.id}`);
    expect(job!.name).toBe(SEND_LINK_JOB);
    expect(job!.data).toEqual({ kind: 'password-reset', userId: member.user.id, tokenId: resetRow.id });

    const stored = await dumpRedis();
    expect(stored).toContain(`password-reset-${resetRow.id}`); // the completed job is kept, ids only
    expectNoSecret(stored, [verifyToken, resetToken]);
    expectNoSecret(t.logs.text(), [verifyToken, resetToken], false);

    const board = await admin.browser
      .get(`${API.adminQueues}/api/queues`)
      .query({ activeQueue: MAIL_QUEUE, status: 'completed', page: 1, jobsPerPage: 50 })
      .expect(200);
    expect(board.text).toContain(`password-reset-${resetRow.id}`);
    expectNoSecret(board.text, [verifyToken, resetToken]);

    await t.browser().post(API.verifyEmail).send({ token: verifyToken }).expect(200);
  });
});
