import { BadRequestException, type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { LIMITS } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { EventsPort } from '../../infra/events/events.port.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { SessionsService } from './sessions.service.js';
import { UsersService } from '../users/users.service.js';
import { AUTH_MESSAGES } from './auth.messages.js';
import { PasswordResetToken } from './entities/password-reset-token.entity.js';
import { tokenHash } from './link-mails.js';
import { signOutLive } from './live-sign-out.js';
import { revokeWithNewPassword } from './password-changed.js';
import { hashPassword } from './passwords.js';

const LIVE_RESET_COLUMNS = selectColumns(PasswordResetToken, 'r', ['id', 'userId']);

/** Forgotten passwords: single-use reset links that expire after an hour. */
@Injectable()
export class PasswordResetService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('PasswordReset');
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly mail: MailService,
    private readonly events: EventsPort,
    private readonly outbox: OutboxService,
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

  /**
   * Sets the new password, uses the token up and signs out everywhere (tokens and unverified-linked
   * identities revoked, confirmation mailed) in one transaction; then closes their live sockets.
   */
  async resetPassword(token: string, newPassword: string): Promise<void> {
    const hash = tokenHash(token);
    const live = (): Promise<Array<Row<PasswordResetToken, 'id' | 'userId'>>> =>
      this.dataSource.query(
        `SELECT ${LIVE_RESET_COLUMNS} FROM password_reset_tokens r
         WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > now()`,
        [hash],
      );
    const [found] = await live();
    if (!found) throw new BadRequestException(AUTH_MESSAGES.invalidResetToken);
    const user = await this.users.findById(found.userId);
    if (!user) throw new BadRequestException(AUTH_MESSAGES.invalidResetToken);
    const passwordHash = await hashPassword(newPassword);
    await this.dataSource.transaction(async (manager) => {
      // Claims the token: of two concurrent resets with it, one wins.
      const [, claimed]: [unknown, number] = await manager.query(
        `UPDATE password_reset_tokens SET used_at = now()
         WHERE id = $1 AND used_at IS NULL AND expires_at > now()`,
        [found.id],
      );
      if (claimed !== 1) throw new BadRequestException(AUTH_MESSAGES.invalidResetToken);
      await this.users.setPasswordHash(found.userId, passwordHash, manager);
      await this.sessions.revokeUserSessions(found.userId, { manager });
      await revokeWithNewPassword(manager, this.outbox, this.config, user, 'reset');
    });
    this.outbox.committed();
    await signOutLive(this.events, this.logger, found.userId);
  }

  /**
   * A new token row (its hash is stored when the mail worker mints the token) and its mail job, which
   * carries the row's id only: the link never sits in the queue.
   */
  private async sendResetLink(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user || user.isBanned) return;
    const tokenId = await this.dataSource.transaction(async (manager) => {
      // A new link voids the user's older ones; expired links of anyone go too.
      await manager.query('DELETE FROM password_reset_tokens WHERE user_id = $1 OR expires_at < now()', [
        user.id,
      ]);
      const [row]: Array<Row<PasswordResetToken, 'id'>> = await manager.query(
        `INSERT INTO password_reset_tokens (user_id, expires_at)
         VALUES ($1, now() + $2 * interval '1 millisecond') RETURNING id`,
        [user.id, LIMITS.resetLinkExpiryMs],
      );
      return row!.id;
    });
    await this.mail.sendLink(
      { kind: 'password-reset', userId: user.id, tokenId },
      { jobId: `password-reset-${tokenId}` },
    );
  }
}
