import { Global, Module } from '@nestjs/common';
import { LinkMails } from '../../modules/auth/link-mails.js';
import { UsersModule } from '../../modules/users/users.module.js';
import { MailProcessor } from './mail.processor.js';
import { LinkMailWriter, MailService } from './mail.service.js';
import { QueuedMailService } from './queued-mail.service.js';

/**
 * MailService everywhere (needs QueueModule and ConfigModule); its processor runs wherever processors run,
 * with the writer of the link mails (password reset, e-mail verification), which mints their tokens.
 */
@Global()
@Module({
  // LinkMails reads the member a link is for through the users module.
  imports: [UsersModule],
  providers: [
    QueuedMailService,
    { provide: MailService, useExisting: QueuedMailService },
    { provide: LinkMailWriter, useClass: LinkMails },
    MailProcessor,
  ],
  exports: [MailService, LinkMailWriter],
})
export class MailModule {}
