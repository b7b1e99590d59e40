import { AKISMET_QUEUE } from '../src/modules/screening/akismet.queue.js';
import { BACKUP_QUEUE } from '../src/infra/backup/backup.queue.js';
import { getQueueToken } from '@nestjs/bullmq';
import { API, POST_MESSAGES } from '@termpaste/contracts';
import type { Queue } from 'bullmq';
import { CROSS_SITE_REFUSED } from '../src/common/origins.js';
import { freePort } from '../src/infra/free-port.js';
import { MAIL_QUEUE, SEND_MAIL_JOB } from '../src/infra/mail/mail.service.js';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import { NOTIFICATIONS_QUEUE } from '../src/modules/notifications/notifications.queue.js';
import { TOKENS_QUEUE } from '../src/modules/auth/tokens/tokens.queue.js';
import { EXPIRY_QUEUE } from '../src/modules/pastes/expiry.queue.js';
import { TRASH_QUEUE } from '../src/modules/pastes/trash.queue.js';
import { ACCOUNT_QUEUE } from '../src/modules/account/account.queue.js';
import { UPLOADS_QUEUE } from '../src/modules/uploads/uploads.queue.js';
import { QUEUE_DASHBOARD_ACTION_REFUSED, QUEUE_DASHBOARD_NEEDS_REDIS } from '../src/http/queue-dashboard.js';
import { type Browser, registered } from './support/accounts.js';
import { describeWithRedis, type RedisHandle, startRedis } from './support/redis.js';
import { type LoopbackSmtp, startSmtp } from './support/smtp.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';
import { SUSPENSIONS_QUEUE } from '../src/modules/moderation/suspensions.queue.js';

const BASE = API.adminQueues;
const UNAUTHORIZED = { statusCode: 401, message: 'Unauthorized' };
const NOT_ADMIN = { statusCode: 403, message: POST_MESSAGES.adminRequired };

interface QueuesResponse {
  queues: Array<{
    name: string;
    counts: Record<string, number>;
    allowRetries: boolean;
    allowCompletedRetries: boolean;
    jobs: Array<{ id: string; name: string; data: unknown; failedReason?: string }>;
  }>;
}

describeWithRedis('queue dashboard (bull-board) at /api/admin/queues', () => {
  let redis: RedisHandle;
  let t: TestApp;
  let admin: Browser;
  let member: Browser;
  let smtpPort: number;
  let smtp: LoopbackSmtp | undefined;
  const delivered: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    smtpPort = await freePort(); // nothing listens there until the test says so
    t = await createTestApp({ env: { REDIS_URL: redis.url, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
    admin = (await registered(t)).browser; // the first account: owner and admin
    member = (await registered(t)).browser;
  });

  afterAll(async () => {
    await t?.close();
    await redis?.stop();
    await smtp?.close();
  });

  const mailQueue = (): Queue => t.app.get<Queue>(getQueueToken(MAIL_QUEUE), { strict: false });

  it('is refused to visitors (401) and members (403), pages and JSON alike', async () => {
    for (const path of [BASE, `${BASE}/`, `${BASE}/api/queues`, `${BASE}/static/css/none.css`]) {
      await t.http.get(path).expect(401, UNAUTHORIZED);
      await member.get(path).expect(403, NOT_ADMIN);
    }
    await t.browser().put(`${BASE}/api/queues/mail/x/retry`).expect(401, UNAUTHORIZED);
    await member.put(`${BASE}/api/queues/mail/x/retry`).expect(403, NOT_ADMIN);
  });

  it('shows admins its page, with working assets under the base path', async () => {
    for (const path of [BASE, `${BASE}/`, `${BASE}/queue/mail`]) {
      const res = await admin.get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toContain(`<base href="${BASE}/" />`);
      expect(res.text).toContain('Termpaste queues');
    }
    const page = (await admin.get(BASE).expect(200)).text;
    const assets = [...page.matchAll(/(?:src|href)="(static\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.some((asset) => asset.endsWith('.js'))).toBe(true);
    expect(assets.some((asset) => asset.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const res = await admin.get(`${BASE}/${asset}`).expect(200);
      expect(res.headers['content-type']).toMatch(/javascript|css|image/);
    }
  });

  it('lists every queue through its JSON API', async () => {
    const res = await admin.get(`${BASE}/api/queues`).query({ page: 1, jobsPerPage: 10 }).expect(200);
    const { queues } = res.body as QueuesResponse;
    expect(queues.map((queue) => queue.name).sort()).toEqual(
      [
        MAIL_QUEUE,
        NOTIFICATIONS_QUEUE,
        UPLOADS_QUEUE,
        TOKENS_QUEUE,
        EXPIRY_QUEUE,
        TRASH_QUEUE,
        ACCOUNT_QUEUE,
        SUSPENSIONS_QUEUE,
        AKISMET_QUEUE,
        BACKUP_QUEUE,
      ].sort(),
    );
    for (const queue of queues) {
      expect(queue).toMatchObject({ allowRetries: true, allowCompletedRetries: false });
      expect(queue.counts).toMatchObject({ waiting: expect.any(Number), failed: expect.any(Number) });
    }
  });

  it('retries a failed job for an admin from our own site, and refuses it cross-site', async () => {
    // SMTP is down: the mail fails for good (one attempt).
    await t.app.get(QueuePort).add(
      MAIL_QUEUE,
      SEND_MAIL_JOB,
      {
        to: 'ops@example.com',
        subject: 'Retried',
        text: 'Reset link: https://example.com/reset?token=secret',
      },
      { jobId: 'dashboard-mail-1', attempts: 1 },
    );
    await waitFor(
      'the job to fail',
      async () => (await mailQueue().getJobState('dashboard-mail-1')) === 'failed',
    );

    // The board lists it, without the mail's text.
    const listed = await admin
      .get(`${BASE}/api/queues`)
      .query({ activeQueue: MAIL_QUEUE, status: 'failed', page: 1, jobsPerPage: 10 })
      .expect(200);
    const mail = (listed.body as QueuesResponse).queues.find((queue) => queue.name === MAIL_QUEUE)!;
    expect(mail.counts.failed).toBe(1);
    expect(mail.jobs).toEqual([
      expect.objectContaining({
        id: 'dashboard-mail-1',
        data: { to: 'ops@example.com', subject: 'Retried', text: '(hidden)' },
        failedReason: expect.stringMatching(/ECONNREFUSED/),
      }),
    ]);
    const detail = await admin.get(`${BASE}/api/queues/${MAIL_QUEUE}/dashboard-mail-1`).expect(200);
    expect(JSON.stringify(detail.body)).not.toContain('secret');

    // SMTP comes back.
    smtp = await startSmtp((raw) => delivered.push(raw), smtpPort);
    expect(smtp.port).toBe(smtpPort);

    const retry = `${BASE}/api/queues/${MAIL_QUEUE}/dashboard-mail-1/retry`;
    // Cross-site, or with no origin at all: refused, and nothing happens.
    await admin
      .put(retry)
      .set('Origin', 'https://evil.example')
      .expect(403, { statusCode: 403, message: CROSS_SITE_REFUSED });
    await admin.put(retry).unset('Origin').expect(403, { statusCode: 403, message: CROSS_SITE_REFUSED });
    expect(await mailQueue().getJobState('dashboard-mail-1')).toBe('failed');

    // From our own site: retried, and delivered.
    await admin.put(retry).expect(204);
    await waitFor(
      'the retried job to complete',
      async () => (await mailQueue().getJobState('dashboard-mail-1')) === 'completed',
    );
    await waitFor('the mail to arrive', () => delivered.length === 1);
    expect(delivered[0]).toContain('Subject: Retried');
  });

  it('retries every failed job of a queue at once, but refuses what the board does not offer', async () => {
    smtp?.close();
    smtp = undefined;
    for (const id of ['dashboard-mail-2', 'dashboard-mail-3']) {
      await t.app
        .get(QueuePort)
        .add(
          MAIL_QUEUE,
          SEND_MAIL_JOB,
          { to: 'a@example.com', subject: id, text: 'x' },
          { jobId: id, attempts: 1 },
        );
    }
    await waitFor('both jobs to fail', async () => (await mailQueue().getJobCounts('failed')).failed === 2);
    const res = await admin.put(`${BASE}/api/queues/${MAIL_QUEUE}/retry/failed`).expect(200);
    expect(res.body).toEqual({ retried: 2, skipped: 0 });

    for (const [method, path] of [
      ['post', `${BASE}/api/queues/${MAIL_QUEUE}/add`],
      ['put', `${BASE}/api/queues/${MAIL_QUEUE}/obliterate`],
      ['put', `${BASE}/api/queues/${MAIL_QUEUE}/empty`],
      ['patch', `${BASE}/api/queues/${MAIL_QUEUE}/dashboard-mail-2/update-data`],
    ] as const) {
      await admin[method](path)
        .send({})
        .expect(403, { statusCode: 403, message: QUEUE_DASHBOARD_ACTION_REFUSED });
    }
  });
});

describe('queue dashboard without REDIS_URL (embedded mode)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers admins 404 saying it needs REDIS_URL; visitors and members as before', async () => {
    const admin = (await registered(t)).browser;
    const member = (await registered(t)).browser;
    await admin.get(BASE).expect(404, { statusCode: 404, message: QUEUE_DASHBOARD_NEEDS_REDIS });
    await admin
      .get(`${BASE}/api/queues`)
      .expect(404, { statusCode: 404, message: QUEUE_DASHBOARD_NEEDS_REDIS });
    await member.get(BASE).expect(403, NOT_ADMIN);
    await t.http.get(BASE).expect(401, UNAUTHORIZED);
  });
});
