import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Injectable, Logger, type OnApplicationShutdown, Optional } from '@nestjs/common';
import {
  type Address,
  createTransport,
  type SMTPSentMessageInfo,
  type StreamSentMessageInfo,
  type Transporter,
} from 'nodemailer';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { Metrics } from '../metrics/metrics.js';
import { type QueueJob, QueueProcessor } from '../queue/queue.port.js';
import { inSpan } from '../tracing/tracing.js';
import {
  type LinkMail,
  LinkMailWriter,
  MAIL_QUEUE,
  MailJobRouter,
  type MailMessage,
  SEND_LINK_JOB,
  SEND_MAIL_JOB,
} from './mail.service.js';

/** Where mail goes without SMTP_URL, under DATA_DIR. */
export const OUTBOX_DIR = 'outbox';

/**
 * Delivers mail over SMTP_URL, else as `.eml` files in `$DATA_DIR/outbox/`. A link job carries ids only
 * and its token is minted here, so none sits in job data. A job run twice sends twice.
 */
@Injectable()
@QueueProcessor(MAIL_QUEUE)
export class MailProcessor implements QueueProcessor<unknown>, OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly from: Address;
  private readonly smtp: Transporter<SMTPSentMessageInfo> | undefined;
  private readonly outbox: Transporter<StreamSentMessageInfo> | undefined;
  private readonly outboxDir: string;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly links: LinkMailWriter,
    @Optional() private readonly metrics?: Metrics,
    @Optional() private readonly jobs: MailJobRouter = new MailJobRouter(),
  ) {
    this.from = { name: config.productName, address: `no-reply@${new URL(config.publicUrl).hostname}` };
    this.outboxDir = path.join(config.dataDir, OUTBOX_DIR);
    if (config.smtpUrl) this.smtp = createTransport(config.smtpUrl);
    else this.outbox = createTransport({ streamTransport: true, buffer: true });
  }

  async process(job: QueueJob<unknown>): Promise<void> {
    if (job.name === SEND_LINK_JOB) {
      const link = job.data as LinkMail;
      const message = await this.links.write(link);
      if (!message) {
        this.logger.log(
          `Link mail ${job.id} not sent: its link was used, replaced by a newer one, or expired`,
        );
        return;
      }
      return this.deliver(message);
    }
    if (job.name !== SEND_MAIL_JOB) {
      // A feature's job (MailModule's `jobs`): it writes its own message, or none.
      const message = await this.jobs.run(job.name, job.data);
      return message ? this.deliver(message) : undefined;
    }
    return this.deliver(job.data as MailMessage);
  }

  /**
   * In a span of the job's trace (no address in it: the log line has that), counted as sent or failed
   * (termpaste_mail_*_total) by transport.
   */
  private async deliver(message: MailMessage): Promise<void> {
    const transport = this.smtp ? 'smtp' : 'file';
    const attributes = { 'termpaste.mail.transport': transport };
    try {
      await inSpan('mail send', { kind: 'client', attributes }, () => this.send(message));
    } catch (error) {
      this.metrics?.mailFailures.inc({ transport });
      throw error;
    }
    this.metrics?.mailSent.inc({ transport });
  }

  private async send({ to, subject, text, html, headers }: MailMessage): Promise<void> {
    const mail = { from: this.from, to, subject, text, html, headers };
    if (this.smtp) {
      const info = await this.smtp.sendMail(mail);
      this.logger.log(`Mail to ${to} sent (${info.messageId})`);
      return;
    }
    const { message } = await this.outbox!.sendMail(mail);
    const file = path.join(this.outboxDir, outboxFileName(new Date()));
    await mkdir(this.outboxDir, { recursive: true });
    // Written aside, then renamed: whoever watches the outbox never reads half a message.
    await writeFile(`${file}.tmp`, message as Buffer);
    await rename(`${file}.tmp`, file);
    this.logger.log(`Mail to ${to} written to ${file}`);
  }

  onApplicationShutdown(): void {
    this.smtp?.close();
  }
}

/** `<ISO timestamp>-<random>.eml`, with `-` for the time's colons (not allowed in Windows file names). */
export function outboxFileName(at: Date): string {
  return `${at.toISOString().replace(/:/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
}
