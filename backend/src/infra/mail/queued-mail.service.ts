import { Injectable } from '@nestjs/common';
import { QueuePort } from '../queue/queue.port.js';
import {
  MAIL_QUEUE,
  type MailMessage,
  MailService,
  SEND_MAIL_JOB,
  type SendMailOptions,
} from './mail.service.js';

/** MailService as the app provides it: a `send` job on the mail queue, delivered by MailProcessor. */
@Injectable()
export class QueuedMailService extends MailService {
  constructor(private readonly queue: QueuePort) {
    super();
  }

  async send({ to, subject, text, html }: MailMessage, options: SendMailOptions = {}): Promise<void> {
    const message: MailMessage = html === undefined ? { to, subject, text } : { to, subject, text, html };
    await this.queue.add(MAIL_QUEUE, SEND_MAIL_JOB, message, { jobId: options.jobId });
  }
}
