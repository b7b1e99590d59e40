import type { MailModuleOptions } from './infra/mail/mail.module.js';
import { DeletionLinkMails } from './modules/account/deletion-links.js';
import { LinkMails } from './modules/auth/link-mails.js';
import { UsersModule } from './modules/users/users.module.js';

/**
 * The link mails and who writes each (mints its token), handed to MailModule by the API and the worker
 * alike: password reset and e-mail verification are auth's, the deletion link is account's.
 */
export const LINK_MAILS: MailModuleOptions = {
  // The writers read the member a link is for.
  imports: [UsersModule],
  links: { 'password-reset': LinkMails, 'verify-email': LinkMails, 'delete-account': DeletionLinkMails },
};
