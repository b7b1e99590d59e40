import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { SSO_MESSAGES } from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { violatedUniqueConstraint } from '../../../common/unique-violation.js';
import type { Row } from '../../../infra/database/columns.js';
import type { User } from '../../users/entities/user.entity.js';
import { UsersService } from '../../users/users.service.js';
import { IDENTITY_SELECT, type IdentityRow } from '../auth-rows.js';
import type { Identity } from '../entities/identity.entity.js';
import type { ProviderIdentity } from './provider-identity.js';

/** Why link() refused. */
export type LinkRefusal = 'identity_taken' | 'already_linked';

const CONFLICTS: Record<string, LinkRefusal> = {
  user_identities_provider_subject_key: 'identity_taken',
  user_identities_user_id_provider_key: 'already_linked',
};

function linkConflict(error: unknown): LinkRefusal | undefined {
  const constraint = violatedUniqueConstraint(error);
  return constraint === undefined ? undefined : CONFLICTS[constraint];
}

/**
 * Members' accounts at sign-in providers (`user_identities`, auth's table): one member per
 * provider account, one account per provider per member.
 */
@Injectable()
export class IdentitiesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
  ) {}

  /** The identity of this provider account, if a member has it. */
  async find(provider: string, subject: string): Promise<IdentityRow | null> {
    const [row]: IdentityRow[] = await this.dataSource.query(
      `SELECT ${IDENTITY_SELECT} FROM user_identities i WHERE i.provider = $1 AND i.subject = $2`,
      [provider, subject],
    );
    return row ?? null;
  }

  /** Member `userId`'s identity at `provider`, if any. */
  async ofUserAt(userId: number, provider: string): Promise<IdentityRow | null> {
    const [row]: IdentityRow[] = await this.dataSource.query(
      `SELECT ${IDENTITY_SELECT} FROM user_identities i WHERE i.user_id = $1 AND i.provider = $2`,
      [userId, provider],
    );
    return row ?? null;
  }

  /** The member's identities, oldest first. */
  list(userId: number): Promise<IdentityRow[]> {
    return this.dataSource.query(
      `SELECT ${IDENTITY_SELECT} FROM user_identities i WHERE i.user_id = $1 ORDER BY i.id`,
      [userId],
    );
  }

  /**
   * Links `identity` to `user` (in `manager`'s transaction when given: a new account's), used
   * now, noting whether the member's e-mail address is unverified now (a password reset or change then
   * unlinks it: see revokeWithNewPassword). A refusal when the provider account is another member's, or the member has one of this provider.
   */
  async link(
    user: Pick<User, 'id' | 'emailVerifiedAt'>,
    identity: ProviderIdentity,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<LinkRefusal | undefined> {
    try {
      await manager.query(
        `INSERT INTO user_identities (user_id, provider, subject, email, last_used_at, linked_unverified)
         VALUES ($1, $2, $3, $4, now(), $5)`,
        [user.id, identity.provider, identity.subject, identity.email, user.emailVerifiedAt === null],
      );
      return undefined;
    } catch (error) {
      const refusal = linkConflict(error);
      if (refusal) return refusal;
      throw error;
    }
  }

  /** A sign-in with the identity: when, and the address the provider gives now. */
  async used(id: number, email: string | null): Promise<void> {
    await this.dataSource.query('UPDATE user_identities SET last_used_at = now(), email = $2 WHERE id = $1', [
      id,
      email,
    ]);
  }

  /**
   * Unlinks the member's identity `id`: 404 when it is not theirs; 409 when it is their last way to sign
   * in (no password, no other identity). The member's row is locked first, so two unlinks at once cannot
   * both pass the check.
   */
  async unlink(userId: number, id: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const user = await this.users.lockById(manager, userId);
      const rows: Array<Row<Identity, 'id'>> = await manager.query(
        'SELECT id FROM user_identities WHERE user_id = $1',
        [userId],
      );
      if (!user || !rows.some((row) => row.id === id)) {
        throw new NotFoundException(SSO_MESSAGES.identityNotFound);
      }
      if (user.passwordHash === null && rows.length === 1) {
        throw new ConflictException(SSO_MESSAGES.lastSignInMethod);
      }
      await manager.query('DELETE FROM user_identities WHERE id = $1', [id]);
    });
  }
}
