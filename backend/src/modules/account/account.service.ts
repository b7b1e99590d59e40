import { BadRequestException, ForbiddenException, Injectable } from '@nestjs/common';
import { ACCOUNT_MESSAGES, DELETE_LINK_VALID_MINUTES } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { MAIL_QUEUE, SEND_LINK_JOB, type LinkMail } from '../../infra/mail/mail.service.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { tokenHash } from '../auth/link-mails.js';
import { verifyPassword } from '../auth/passwords.js';
import type { User } from '../users/entities/user.entity.js';
import { UsersService } from '../users/users.service.js';
import { AccountDeletionService } from './account-deletion.service.js';
import { AccountDeletionLink } from './entities/account-deletion-link.entity.js';

const USED_LINK_COLUMNS = ['id', 'userId', 'keepContent'] as const;
const USED_LINK_SELECT = selectColumns(AccountDeletionLink, 'l', USED_LINK_COLUMNS);
type UsedLink = Row<AccountDeletionLink, (typeof USED_LINK_COLUMNS)[number]>;

/** What the member's `DELETE /api/user` did: deleted at once, or mailed a link to confirm. */
export type DeleteOutcome = 'deleted' | 'mailed';

/**
 * The member's own deletion of their account: with their password (400 missing, 403 wrong), or for a
 * provider-only member a mailed single-use link. The owner cannot leave (403).
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly deletion: AccountDeletionService,
    private readonly outbox: OutboxService,
  ) {}

  async deleteOwn(user: User, password: string | undefined, keepContent: boolean): Promise<DeleteOutcome> {
    if (user.isOwner) throw new ForbiddenException(ACCOUNT_MESSAGES.ownerCannotLeave);
    if (user.passwordHash === null) {
      await this.mailLink(user.id, keepContent);
      return 'mailed';
    }
    if (password === undefined || password === '') {
      throw new BadRequestException(ACCOUNT_MESSAGES.passwordRequired);
    }
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw new ForbiddenException(ACCOUNT_MESSAGES.passwordIncorrect);
    }
    await this.erase(user.id, keepContent);
    return 'deleted';
  }

  /** The mailed link's token: 400 when unknown, used or expired; else the account goes. */
  async confirm(token: string): Promise<number> {
    const erased = await this.dataSource.transaction(async (manager) => {
      const [link]: UsedLink[] = await manager.query(
        `WITH used AS (UPDATE account_deletion_links AS l SET used_at = now()
           WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now()
           RETURNING ${USED_LINK_SELECT})
         SELECT * FROM used`,
        [tokenHash(token)],
      );
      if (!link) throw new BadRequestException(ACCOUNT_MESSAGES.deleteLinkInvalid);
      const target = await this.users.lockById(manager, link.userId);
      if (!target) throw new BadRequestException(ACCOUNT_MESSAGES.deleteLinkInvalid);
      if (target.isOwner) throw new ForbiddenException(ACCOUNT_MESSAGES.ownerCannotLeave);
      return this.deletion.erase(manager, target, link.keepContent, { self: true });
    });
    await this.deletion.finish(erased);
    return erased.userId;
  }

  private async erase(userId: number, keepContent: boolean): Promise<void> {
    const erased = await this.dataSource.transaction(async (manager) => {
      const target = await this.users.lockById(manager, userId);
      if (!target) throw new BadRequestException(ACCOUNT_MESSAGES.deleteLinkInvalid);
      if (target.isOwner) throw new ForbiddenException(ACCOUNT_MESSAGES.ownerCannotLeave);
      return this.deletion.erase(manager, target, keepContent, { self: true });
    });
    await this.deletion.finish(erased);
  }

  private async mailLink(userId: number, keepContent: boolean): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const [row]: Array<Row<AccountDeletionLink, 'id'>> = await manager.query(
        `INSERT INTO account_deletion_links (user_id, keep_content, expires_at)
         VALUES ($1, $2, now() + make_interval(mins => $3)) RETURNING id`,
        [userId, keepContent, DELETE_LINK_VALID_MINUTES],
      );
      const link: LinkMail = { kind: 'delete-account', userId, tokenId: row!.id };
      await this.outbox.add(manager, { queue: MAIL_QUEUE, name: SEND_LINK_JOB, data: link });
    });
    this.outbox.committed();
  }
}
