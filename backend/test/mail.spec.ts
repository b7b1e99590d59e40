import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import addressparser from 'nodemailer/lib/addressparser';
import type { SMTPServerEnvelope } from 'smtp-server';
import { QueuedMailService } from '../src/infra/mail/queued-mail.service.js';
import { BullMqQueue } from '../src/infra/queue/bullmq.queue.js';
import { QueuePort } from '../src/infra/queue/queue.port.js';
import { parseMessage } from './support/eml.js';
import { describeWithRedis, type RedisHandle, startRedis } from './support/redis.js';
import { type LoopbackSmtp, startSmtp } from './support/smtp.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

/**
 * The app's own MailService: resolved by its class, because createTestApp also registers a recording
 * MailService for the API suites.
 */
function mail(t: TestApp): QueuedMailService {
  return t.app.get(QueuedMailService);
}

async function outboxFiles(t: TestApp): Promise<string[]> {
  try {
    return (await readdir(path.join(t.config.dataDir, 'outbox'))).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Waits until the outbox holds `count` messages; returns their paths, oldest first. */
async function waitForOutbox(t: TestApp, count: number): Promise<string[]> {
  const names = await waitFor(`${count} message(s) in the outbox`, async () => {
    const files = await outboxFiles(t);
    return files.filter((name) => name.endsWith('.eml')).length >= count && files;
  });
  return names.map((name) => path.join(t.config.dataDir, 'outbox', name));
}

describe('mail without SMTP_URL (embedded): the outbox', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { PUBLIC_URL: 'https://forum.example.com:8443', PRODUCT_NAME: 'Paste "Club"' },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('writes each message as an RFC 822 .eml file in $DATA_DIR/outbox, and logs its path', async () => {
    expect(await outboxFiles(t)).toEqual([]);
    await mail(t).send({
      to: 'ada@example.com',
      subject: 'Reset your password',
      text: 'Open https://forum.example.com:8443/reset?token=abc\nto choose a new password.',
    });

    const [file] = await waitForOutbox(t, 1);
    expect(await outboxFiles(t)).toEqual([path.basename(file!)]); // nothing half-written left beside it
    expect(path.basename(file!)).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{8}\.eml$/);
    const message = parseMessage(await readFile(file!, 'utf8'));
    expect(message.headers.get('to')).toBe('ada@example.com');
    expect(message.headers.get('subject')).toBe('Reset your password');
    expect(addressparser(message.headers.get('from')!)).toEqual([
      { name: 'Paste "Club"', address: 'no-reply@forum.example.com' },
    ]);
    expect(message.headers.get('content-type')).toMatch(/^text\/plain; charset=utf-8/);
    expect(message.headers.get('message-id')).toMatch(/^<.+@.+>$/);
    expect(message.body.replace(/\r\n/g, '\n').trim()).toBe(
      'Open https://forum.example.com:8443/reset?token=abc\nto choose a new password.',
    );
    expect(t.logs.text()).toContain(`Mail to ada@example.com written to ${file}`);
  });

  it('sends a message put on the queue twice under one jobId once', async () => {
    const before = (await outboxFiles(t)).length;
    await mail(t).send(
      { to: 'bob@example.com', subject: 'Once', text: 'only once' },
      { jobId: 'welcome-bob' },
    );
    await mail(t).send(
      { to: 'bob@example.com', subject: 'Once', text: 'only once' },
      { jobId: 'welcome-bob' },
    );
    await mail(t).send({ to: 'cy@example.com', subject: 'Other', text: 'another' }, { jobId: 'welcome-cy' });

    const files = await waitForOutbox(t, before + 2);
    const subjects = await Promise.all(
      files.map(async (file) => parseMessage(await readFile(file, 'utf8')).headers.get('subject')),
    );
    expect(subjects.filter((subject) => subject === 'Once')).toHaveLength(1);
    expect(subjects.filter((subject) => subject === 'Other')).toHaveLength(1);
  });
});

describe('mail over SMTP_URL', () => {
  let t: TestApp;
  let smtp: LoopbackSmtp | undefined;
  const received: Array<{ envelope: SMTPServerEnvelope; raw: string }> = [];

  beforeAll(async () => {
    smtp = await startSmtp((raw, envelope) => received.push({ envelope, raw }));
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('delivers to the SMTP server with the right envelope, headers and body', async () => {
    await mail(t).send({
      to: 'bob@example.com',
      subject: 'Welcome to Termpaste',
      text: 'Hello Bob, your account is ready.',
      html: '<p>Hello <b>Bob</b>, your account is ready.</p>',
    });

    const [delivered] = await waitFor(
      'the SMTP server to receive the message',
      () => received.length > 0 && received,
    );
    expect(delivered!.envelope.mailFrom).toMatchObject({ address: 'no-reply@localhost' });
    expect(delivered!.envelope.rcptTo.map((rcpt) => rcpt.address)).toEqual(['bob@example.com']);
    const message = parseMessage(delivered!.raw);
    expect(message.headers.get('to')).toBe('bob@example.com');
    expect(message.headers.get('subject')).toBe('Welcome to Termpaste');
    expect(addressparser(message.headers.get('from')!)).toEqual([
      { name: 'Termpaste', address: 'no-reply@localhost' },
    ]);
    expect(message.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    expect(message.body).toContain('Hello Bob, your account is ready.');
    expect(message.body).toContain('<p>Hello <b>Bob</b>, your account is ready.</p>');

    await waitFor('the log line', () => t.logs.text().includes('Mail to bob@example.com sent ('));
    expect(await outboxFiles(t)).toEqual([]);
  });
});

describeWithRedis('mail with REDIS_URL set: through BullMQ', () => {
  let redis: RedisHandle;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startRedis();
    t = await createTestApp({ env: { REDIS_URL: redis.url } });
  });

  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('is delivered by the mail processor on a BullMQ worker in the API process', async () => {
    expect(t.app.get(QueuePort)).toBeInstanceOf(BullMqQueue);
    await mail(t).send({ to: 'dee@example.com', subject: 'Via Redis', text: 'queued in Redis' });

    const [file] = await waitForOutbox(t, 1);
    const message = parseMessage(await readFile(file!, 'utf8'));
    expect(message.headers.get('subject')).toBe('Via Redis');
    expect(message.body.trim()).toBe('queued in Redis');
    expect(t.logs.text()).toContain(`Mail to dee@example.com written to ${file}`);
  });
});
