import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { MailSweepsModule } from './mail-sweeps.module.js';
import { MailingsController } from './mailings.controller.js';

/**
 * E-mail while away: the preferences, and the unsubscribe links' routes. The mails themselves are jobs of
 * the mail queue (MailSweepsModule).
 */
@Module({
  imports: [UsersModule, MailSweepsModule],
  controllers: [MailingsController],
})
export class MailingsModule {}
