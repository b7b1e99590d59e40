import { BadRequestException, ConflictException, Injectable, Logger } from '@nestjs/common';
import { VERIFY_LINK_EXPIRY_MS, VERIFY_MESSAGES } from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { EmailVerificationToken } from './entities/email-verification-token.entity.js';
import { OwnerService } from './owner.service.js';
import type { User } from '../users/entities/user.entity.js';
import { UsersService } from '../users/users.service.js';
import { tokenHash } from './link-mails.js';

const CLAIMED_COLUMNS = selectColumns(EmailVerificationToken, 'v', ['userId', 'email']);

/**
 * E-mail verification: a single-use link valid 24 hours; a new one (rate limited) voids the older. Only
 * hashes are stored and the mail worker mints the token, so the queue holds ids only. Verifying
 * OWNER_EMAIL's address makes that account the owner.
 */
@Injectable()
export class EmailVerificationService {
  private readonly logger = new Logger('EmailVerification');

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly owners: OwnerService,
    private readonly mail: MailService,
  ) {}

  /** A new link's row for the member's current address (no token yet), in the caller's transaction. */
  async createToken(manager: EntityManager, user: Pick<User, 'id' | 'email'>): Promise<number> {
    // A new link voids the member's older ones; expired links of anyone go too.
    await manager.query('DELETE FROM email_verification_tokens WHERE user_id = $1 OR expires_at < now()', [
      user.id,
    ]);
    const [row]: Array<Row<EmailVerificationToken, 'id'>> = await manager.query(
      `INSERT INTO email_verification_tokens (user_id, email, expires_at)
       VALUES ($1, $2, now() + $3 * interval '1 millisecond') RETURNING id`,
      [user.id, user.email, VERIFY_LINK_EXPIRY_MS],
    );
    return row!.id;
  }

  /**
   * Queues the mail of a link row made by createToken (after its transaction committed). A queue that
   * does not answer is logged, not thrown: the account exists, and the member can ask for a new link.
   */
  async mailLink(userId: number, tokenId: number): Promise<void> {
    try {
      await this.mail.sendLink(
        { kind: 'verify-email', userId, tokenId },
        { jobId: `verify-email-${tokenId}` },
      );
    } catch (error) {
      this.logger.error(
        `The verification mail of user ${userId} could not be queued`,
        error instanceof Error ? error.stack : String(error),
      );
    }
  }

  /** A new link for a signed-in member; 409 when the address is verified already. */
  async resend(user: User): Promise<void> {
    if (user.emailVerifiedAt !== null) throw new ConflictException(VERIFY_MESSAGES.alreadyVerified);
    const tokenId = await this.dataSource.transaction((manager) => this.createToken(manager, user));
    await this.mail.sendLink(
      { kind: 'verify-email', userId: user.id, tokenId },
      { jobId: `verify-email-${tokenId}` },
    );
  }

  /**
   * Uses the token up and marks the address verified, in one transaction (with the owner's grant when
   * it is OWNER_EMAIL's). 400 for a token that is wrong, used, expired, or for an address the member no
   * longer has.
   */
  async verify(token: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const [[claimed]]: [Array<Row<EmailVerificationToken, 'userId' | 'email'>>, number] =
        await manager.query(
          `UPDATE email_verification_tokens AS v SET used_at = now()
         WHERE v.token_hash = $1 AND v.used_at IS NULL AND v.expires_at > now()
         RETURNING ${CLAIMED_COLUMNS}`,
          [tokenHash(token)],
        );
      // A link to an address the member no longer has: refused, and (thrown) the token stays unused.
      if (!claimed || !(await this.users.hasAddress(claimed.userId, claimed.email, { manager }))) {
        throw new BadRequestException(VERIFY_MESSAGES.invalidToken);
      }
      await this.users.markEmailVerified(claimed.userId, manager);
      await manager.query('DELETE FROM email_verification_tokens WHERE user_id = $1 AND used_at IS NULL', [
        claimed.userId,
      ]);
      await this.owners.grantIfOwnerEmail(manager, claimed.userId, claimed.email);
    });
  }
}
