import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PAGES } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import type { Row } from '../../infra/database/columns.js';
import { type LinkMail, LinkMailWriter, type MailMessage } from '../../infra/mail/mail.service.js';
import { UsersService } from '../users/users.service.js';
import type { EmailVerificationToken } from './entities/email-verification-token.entity.js';

/** Only this digest of a link's token is stored: a leaked table opens no account. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new link token: 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

interface Minted {
  username: string;
  email: string;
}

/**
 * The password-reset and verification mails, written where mail is sent: mints the token, stores its
 * hash on the job's row (if unused, unexpired, for the current address). The queue carries ids only, so
 * no token sits in Redis, the dashboard or a log.
 */
@Injectable()
export class LinkMails extends LinkMailWriter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    @InjectConfig() private readonly config: Pick<AppConfig, 'publicUrl' | 'productName'>,
  ) {
    super();
  }

  async write(link: LinkMail): Promise<MailMessage | null> {
    const token = newToken();
    const minted = await this.mint(link, tokenHash(token));
    if (!minted) return null;
    const product = this.config.productName;
    if (link.kind === 'password-reset') {
      return {
        to: minted.email,
        subject: `Reset your ${product} password`,
        text: [
          `Someone (hopefully you) asked to reset the password of the ${product} account ${minted.username}.`,
          '',
          'Open this link within 1 hour to choose a new password:',
          `${this.config.publicUrl}${PAGES.resetPassword}?token=${token}`,
          '',
          'If you did not ask for this, ignore this mail: your password stays as it is.',
        ].join('\n'),
      };
    }
    return {
      to: minted.email,
      subject: `Verify your e-mail address for ${product}`,
      text: [
        `Welcome to ${product}, ${minted.username}!`,
        '',
        'Open this link within 24 hours to verify your e-mail address:',
        `${this.config.publicUrl}${PAGES.verifyEmail}?token=${token}`,
        '',
        'Until then you can read, but not post, reply, vote, message or chat.',
        'If you did not create this account, ignore this mail.',
      ].join('\n'),
    };
  }

  /** Stores the hash on the job's row if it may still be used; the member's name and address to mail. */
  private async mint(link: LinkMail, hash: string): Promise<Minted | undefined> {
    const user = await this.users.findById(link.userId);
    if (!user) return undefined;
    if (link.kind === 'password-reset') {
      if (user.isBanned) return undefined;
      const [minted]: [unknown[], number] = await this.dataSource.query(
        `UPDATE password_reset_tokens SET token_hash = $3
         WHERE id = $1 AND user_id = $2 AND used_at IS NULL AND expires_at > now()
         RETURNING id`,
        [link.tokenId, link.userId, hash],
      );
      return minted.length > 0 ? { username: user.username, email: user.email } : undefined;
    }
    // The address the link was asked for, while it is still the member's and not yet verified.
    if (user.emailVerifiedAt !== null) return undefined;
    const [[row]]: [Array<Row<EmailVerificationToken, 'email'>>, number] = await this.dataSource.query(
      `UPDATE email_verification_tokens SET token_hash = $3
       WHERE id = $1 AND user_id = $2 AND email = $4::citext AND used_at IS NULL AND expires_at > now()
       RETURNING email::text AS email`,
      [link.tokenId, link.userId, hash, user.email],
    );
    return row && { username: user.username, email: row.email };
  }
}
