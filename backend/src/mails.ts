import type { MailModuleOptions } from './infra/mail/mail.module.js';
import { DeletionLinkMails } from './modules/account/deletion-links.js';
import { LinkMails } from './modules/auth/link-mails.js';
import { UsersModule } from './modules/users/users.module.js';
import { DigestMails } from './modules/mailings/digest-mails.js';
import { MailSweepsModule } from './modules/mailings/mail-sweeps.module.js';
import { MAILINGS_JOBS } from './modules/mailings/mailings.jobs.js';
import { NoticeMails } from './modules/mailings/notice-mails.js';

/**
 * The link mails and who writes each (mints its token), handed to MailModule by the API and the worker
 * alike: password reset and e-mail verification are auth's, the deletion link is account's; and the
 * mailings' jobs (away mails, digests).
 */
export const LINK_MAILS: MailModuleOptions = {
  // The writers read the member a link is for; the mailings' runners write the away mails and digests.
  imports: [UsersModule, MailSweepsModule],
  links: { 'password-reset': LinkMails, 'verify-email': LinkMails, 'delete-account': DeletionLinkMails },
  jobs: {
    [MAILINGS_JOBS.noticeSweep]: NoticeMails,
    [MAILINGS_JOBS.noticeMail]: NoticeMails,
    [MAILINGS_JOBS.digestSweep]: DigestMails,
    [MAILINGS_JOBS.digestMail]: DigestMails,
  },
};
