import { Global, Module } from '@nestjs/common';
import { DeletionLinkMails } from '../../modules/account/deletion-links.js';
import { LinkMails } from '../../modules/auth/link-mails.js';
import { UsersModule } from '../../modules/users/users.module.js';
import { MailProcessor } from './mail.processor.js';
import { LinkMailRouter, LinkMailWriter, MailService } from './mail.service.js';
import { QueuedMailService } from './queued-mail.service.js';

/**
 * MailService everywhere; its processor runs wherever processors run, with the link mails' writers, which
 * mint tokens.
 */
@Global()
@Module({
  // LinkMails reads the member a link is for through the users module.
  imports: [UsersModule],
  providers: [
    QueuedMailService,
    { provide: MailService, useExisting: QueuedMailService },
    LinkMails,
    DeletionLinkMails,
    {
      provide: LinkMailWriter,
      useFactory: (auth: LinkMails, account: DeletionLinkMails) =>
        new LinkMailRouter({ 'password-reset': auth, 'verify-email': auth, 'delete-account': account }),
      inject: [LinkMails, DeletionLinkMails],
    },
    MailProcessor,
  ],
  exports: [MailService, LinkMailWriter],
})
export class MailModule {}
