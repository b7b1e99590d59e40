import { Injectable } from '@nestjs/common';
import { QueuePort } from '../queue/queue.port.js';
import {
  type LinkMail,
  MAIL_QUEUE,
  type MailMessage,
  MailService,
  SEND_LINK_JOB,
  SEND_MAIL_JOB,
  type SendMailOptions,
} from './mail.service.js';

/** MailService as the app provides it: jobs on the mail queue, delivered by MailProcessor. */
@Injectable()
export class QueuedMailService extends MailService {
  constructor(private readonly queue: QueuePort) {
    super();
  }

  async send(
    { to, subject, text, html, headers }: MailMessage,
    options: SendMailOptions = {},
  ): Promise<void> {
    const message: MailMessage = html === undefined ? { to, subject, text } : { to, subject, text, html };
    if (headers !== undefined) message.headers = headers;
    await this.queue.add(MAIL_QUEUE, SEND_MAIL_JOB, message, { jobId: options.jobId });
  }

  /** Only the ids go into the job: never the token, never the link. */
  async sendLink({ kind, userId, tokenId }: LinkMail, options: SendMailOptions = {}): Promise<void> {
    const link: LinkMail = { kind, userId, tokenId };
    await this.queue.add(MAIL_QUEUE, SEND_LINK_JOB, link, { jobId: options.jobId });
  }
}
