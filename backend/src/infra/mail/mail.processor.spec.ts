import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/config.js';
import { Metrics } from '../metrics/metrics.js';
import { MailProcessor } from './mail.processor.js';
import { LinkMailRouter, SEND_MAIL_JOB } from './mail.service.js';

describe('MailProcessor metrics', () => {
  const message = { to: 'someone@example.com', subject: 'Hello', text: 'Hi' };
  const job = { id: 'm1', name: SEND_MAIL_JOB, data: message, attemptsMade: 0 };
  const config = (smtpUrl: string | undefined, dataDir: string) =>
    ({ productName: 'Termpaste', publicUrl: 'http://localhost:3000', dataDir, smtpUrl }) as AppConfig;
  let dataDir: string;

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'termpaste-mail-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const value = async (metrics: Metrics, series: string) =>
    (await metrics.registry.getSingleMetricAsString(series.split('{')[0]!))
      .split('\n')
      .find((line) => line.startsWith(`${series} `))
      ?.split(' ')[1];

  it('counts a delivery as sent, by transport', async () => {
    const metrics = new Metrics();
    const processor = new MailProcessor(config(undefined, dataDir), new LinkMailRouter({}), metrics);
    await processor.process(job);
    expect(await value(metrics, 'termpaste_mail_sent_total{transport="file"}')).toBe('1');
  });

  it('counts a failed delivery, and the job still fails (to be retried)', async () => {
    const metrics = new Metrics();
    const processor = new MailProcessor(
      config('smtp://127.0.0.1:1', dataDir),
      new LinkMailRouter({}),
      metrics,
    );
    await expect(processor.process(job)).rejects.toThrow();
    expect(await value(metrics, 'termpaste_mail_failures_total{transport="smtp"}')).toBe('1');
    expect(await value(metrics, 'termpaste_mail_sent_total{transport="smtp"}')).toBeUndefined();
    processor.onApplicationShutdown();
  });
});
