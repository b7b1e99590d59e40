import { Module, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { MAIL_QUEUE } from '../../infra/mail/mail.service.js';
import { QueuePort } from '../../infra/queue/queue.port.js';
import { UsersModule } from '../users/users.module.js';
import { DigestMails } from './digest-mails.js';
import { MailSettings } from './mail-settings.service.js';
import {
  DIGEST_MAILS_SCHEDULE,
  DIGEST_SWEEP_MS,
  MAILINGS_JOBS,
  NOTICE_MAILS_SCHEDULE,
} from './mailings.jobs.js';
import { NoticeMails } from './notice-mails.js';

/**
 * The away mails and digests as jobs of the mail queue (mails.ts hands their runners to MailModule), for
 * the API and the worker alike: their sweeps repeat wherever jobs run.
 */
@Module({
  imports: [UsersModule],
  providers: [MailSettings, NoticeMails, DigestMails],
  exports: [MailSettings, NoticeMails, DigestMails],
})
export class MailSweepsModule implements OnModuleInit {
  constructor(
    private readonly queue: QueuePort,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.queue.repeat({
      queue: MAIL_QUEUE,
      id: NOTICE_MAILS_SCHEDULE,
      name: MAILINGS_JOBS.noticeSweep,
      data: {},
      everyMs: this.config.mailings.sweepMs,
      attempts: 1,
    });
    this.queue.repeat({
      queue: MAIL_QUEUE,
      id: DIGEST_MAILS_SCHEDULE,
      name: MAILINGS_JOBS.digestSweep,
      data: {},
      everyMs: DIGEST_SWEEP_MS,
      attempts: 1,
    });
  }
}
