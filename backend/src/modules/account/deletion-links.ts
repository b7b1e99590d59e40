import { Injectable } from '@nestjs/common';
import { DELETE_LINK_VALID_MINUTES, PAGES } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { type LinkMail, LinkMailWriter, type MailMessage } from '../../infra/mail/mail.service.js';
import { newToken, tokenHash } from '../auth/link-mails.js';
import { UsersService } from '../users/users.service.js';
import { AccountDeletionLink } from './entities/account-deletion-link.entity.js';

const MINTED_SELECT = selectColumns(AccountDeletionLink, 'l', ['keepContent']);

/**
 * The mail confirming a provider-only member's deletion, written where mail is sent: mints the token,
 * stores its hash on the job's row while unused and unexpired. No token waits in the queue.
 */
@Injectable()
export class DeletionLinkMails extends LinkMailWriter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    @InjectConfig() private readonly config: Pick<AppConfig, 'publicUrl' | 'productName'>,
  ) {
    super();
  }

  async write(link: LinkMail): Promise<MailMessage | null> {
    const user = await this.users.findById(link.userId);
    if (!user) return null;
    const token = newToken();
    const [row]: Array<Row<AccountDeletionLink, 'keepContent'>> = await this.dataSource.query(
      `WITH minted AS (UPDATE account_deletion_links AS l SET token_hash = $3
         WHERE l.id = $1 AND l.user_id = $2 AND l.used_at IS NULL AND l.expires_at > now()
         RETURNING ${MINTED_SELECT})
       SELECT * FROM minted`,
      [link.tokenId, link.userId, tokenHash(token)],
    );
    if (!row) return null;
    const product = this.config.productName;
    return {
      to: user.email,
      subject: `Confirm the deletion of your ${product} account`,
      text: [
        `Someone (hopefully you) asked to delete the ${product} account ${user.username}.`,
        row.keepContent
          ? "Your pastes and replies would stay, under 'Anonymous'."
          : 'Your pastes and replies would be deleted too.',
        '',
        `Open this link within ${DELETE_LINK_VALID_MINUTES} minutes to confirm; it works once:`,
        `${this.config.publicUrl}${PAGES.settingsAccount}?deleteToken=${token}`,
        '',
        'If you did not ask for this, ignore this mail: your account stays as it is.',
      ].join('\n'),
    };
  }
}
