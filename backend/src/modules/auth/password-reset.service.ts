import { createHash, randomBytes } from 'node:crypto';
import { BadRequestException, type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { LIMITS, PAGES } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { SessionsService } from '../users/sessions.service.js';
import { UsersService } from '../users/users.service.js';
import { AUTH_MESSAGES } from './auth.messages.js';
import { hashPassword } from './passwords.js';

/** Only this digest of a token is stored: a leaked table opens no account. */
export function resetTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Forgotten passwords: single-use reset links that expire after an hour (SPEC §9). */
@Injectable()
export class PasswordResetService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('PasswordReset');
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly mail: MailService,
    @InjectConfig() private readonly config: Pick<AppConfig, 'publicUrl' | 'productName'>,
  ) {}

  /**
   * Returns at once: the lookup, the token and the mail happen afterwards, so the reply and its timing
   * are the same whether or not the address has an account.
   */
  requestReset(email: string): void {
    const work: Promise<void> = this.sendResetLink(email)
      .catch((error: unknown) =>
        this.logger.error(
          'Sending a password reset link failed',
          error instanceof Error ? error.stack : String(error),
        ),
      )
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
  }

  /** Resolves once every reset link asked for so far is sent (or has failed). */
  async whenIdle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.whenIdle();
  }

  /** Sets the new password, uses the token up and signs the user out everywhere, in one transaction. */
  async resetPassword(token: string, newPassword: string): Promise<void> {
    const tokenHash = resetTokenHash(token);
    const live = (): Promise<Array<{ id: number; user_id: number }>> =>
      this.dataSource.query(
        `SELECT id, user_id FROM password_reset_tokens
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()`,
        [tokenHash],
      );
    const [found] = await live();
    if (!found) throw new BadRequestException(AUTH_MESSAGES.invalidResetToken);
    const passwordHash = await hashPassword(newPassword);
    await this.dataSource.transaction(async (manager) => {
      // Claims the token: of two concurrent resets with it, one wins.
      const [, claimed]: [unknown, number] = await manager.query(
        `UPDATE password_reset_tokens SET used_at = now()
         WHERE id = $1 AND used_at IS NULL AND expires_at > now()`,
        [found.id],
      );
      if (claimed !== 1) throw new BadRequestException(AUTH_MESSAGES.invalidResetToken);
      await this.users.setPasswordHash(found.user_id, passwordHash, manager);
      await this.sessions.revokeUserSessions(found.user_id, { manager });
    });
  }

  private async sendResetLink(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user || user.isBanned) return;
    const token = randomBytes(32).toString('base64url');
    const tokenId = await this.dataSource.transaction(async (manager) => {
      // A new link voids the user's older ones; expired links of anyone go too.
      await manager.query('DELETE FROM password_reset_tokens WHERE user_id = $1 OR expires_at < now()', [
        user.id,
      ]);
      const [row]: Array<{ id: number }> = await manager.query(
        `INSERT INTO password_reset_tokens (user_id, token_hash, expires_at)
         VALUES ($1, $2, now() + $3 * interval '1 millisecond') RETURNING id`,
        [user.id, resetTokenHash(token), LIMITS.resetLinkExpiryMs],
      );
      return row!.id;
    });
    const link = `${this.config.publicUrl}${PAGES.resetPassword}?token=${token}`;
    const product = this.config.productName;
    await this.mail.send(
      {
        to: user.email,
        subject: `Reset your ${product} password`,
        text: [
          `Someone (hopefully you) asked to reset the password of the ${product} account ${user.username}.`,
          '',
          'Open this link within 1 hour to choose a new password:',
          link,
          '',
          'If you did not ask for this, ignore this mail: your password stays as it is.',
        ].join('\n'),
      },
      { jobId: `password-reset-${tokenId}` },
    );
  }
}
