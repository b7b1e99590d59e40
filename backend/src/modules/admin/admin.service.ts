import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  Logger,
  NotFoundException,
  Optional,
} from '@nestjs/common';
import {
  ADMIN_MESSAGES,
  ADMIN_USERS_PAGE_SIZE,
  adminActionRefusal,
  type AdminUser,
  type AdminUserAction,
  type AdminUsersPage,
  type AuditAction,
  hasAvatar,
  LIVE_EVENT,
  PREMIUM_RANK_NAMES,
  type PremiumRankName,
} from '@termpaste/contracts';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { createdMicros, keysetPage } from '../../common/keyset-cursor.js';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { StoragePort } from '../../infra/storage/storage.port.js';
import { ownedActiveRank } from '../users/author-sql.js';
import type { User } from '../users/entities/user.entity.js';
import { VotesService } from '../votes/votes.service.js';
import { SessionsService } from '../auth/sessions.service.js';
import { USERNAME_TAKEN } from '../users/users.service.js';
import { containsPattern } from '../../common/like-pattern.js';
import { type AuditRecord, AuditService } from '../audit/audit.service.js';

/** The acting admin, as the admin guard loaded them for this request. */
export type Actor = Pick<User, 'id' | 'username' | 'isAdmin' | 'isOwner'>;

/** The target of an action, as read (and locked) in the action's transaction. */
interface TargetRow {
  id: number;
  username: string;
  email: string;
  is_admin: boolean;
  is_owner: boolean;
  is_banned: boolean;
  avatar_url: string | null;
  profile_image_url: string | null;
  owned_premium_ranks: string[];
  active_premium_rank: string | null;
  reputation: number;
  thread_count: number;
  reply_count: number;
}

const ADMIN_USER_COLUMNS = `u.id, u.username::text AS username, u.email::text AS email, u.first_name, u.last_name,
  u.avatar_url, u.profile_image_url, u.reputation, ${ownedActiveRank('u')} AS active_premium_rank,
  u.owned_premium_ranks, u.is_admin, u.is_owner, u.is_banned, u.created_at, ${createdMicros('u')} AS created_micros`;

interface AdminUserRow {
  id: number;
  username: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  avatar_url: string | null;
  profile_image_url: string | null;
  reputation: number;
  active_premium_rank: string | null;
  owned_premium_ranks: string[];
  is_admin: boolean;
  is_owner: boolean;
  is_banned: boolean;
  created_at: Date;
  created_micros: string;
}

function toAdminUser(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    avatarUrl: row.avatar_url,
    profileImageUrl: row.profile_image_url,
    reputation: row.reputation,
    activePremiumRank: row.active_premium_rank,
    ownedPremiumRanks: row.owned_premium_ranks,
    isAdmin: row.is_admin,
    isOwner: row.is_owner,
    isBanned: row.is_banned,
    createdAt: row.created_at.toISOString(),
  };
}

const UNIQUE_VIOLATION = '23505';

function isUsernameTaken(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const { code, constraint } = error.driverError as { code?: string; constraint?: string };
  return code === UNIQUE_VIOLATION && constraint === 'users_username_key';
}

/** Work to do once the action's transaction has committed. */
interface AfterCommit {
  /** Members to sign out live (their sockets closed on every instance). */
  signOut?: number;
  /** Avatar URLs whose stored objects (if ours) are to be removed. */
  removeAvatars?: Array<string | null>;
}

/**
 * The admin panel's member management (SPEC §2 Admin panel, §6, §7): the users table, ban, unban, rename,
 * avatar removal, account deletion, VIP grades and the admin role. Each action runs in one transaction
 * that locks the target, checks the permission table, changes the account and writes its audit entry;
 * signing out live and removing stored avatars happen once it has committed.
 */
@Injectable()
export class AdminService {
  private readonly logger = new Logger('Admin');

  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly votes: VotesService,
    private readonly events: EventsPort,
    /** Absent until a storage adapter is configured: then there is no stored object to remove. */
    @Optional() private readonly storage?: StoragePort,
  ) {}

  /** Newest members first, ADMIN_USERS_PAGE_SIZE a page; `q` keeps those whose username or e-mail contains it. */
  async users(q: string, cursor?: string): Promise<AdminUsersPage> {
    const params: unknown[] = [];
    let where = 'true';
    if (q) {
      params.push(containsPattern(q));
      where = '(lower(u.username::text) LIKE $1 OR lower(u.email::text) LIKE $1)';
    }
    const { rows, nextCursor } = await keysetPage<AdminUserRow>(
      (sql, values) => this.dataSource.query(sql, values),
      {
        alias: 'u',
        select: ADMIN_USER_COLUMNS,
        from: 'users u',
        where,
        params,
        pageSize: ADMIN_USERS_PAGE_SIZE,
        cursor,
      },
    );
    return { users: rows.map(toAdminUser), nextCursor };
  }

  /** Bans the member and signs them out everywhere: sessions revoked, live sockets closed. */
  ban(actor: Actor, userId: number): Promise<AdminUser> {
    return this.act(actor, userId, 'ban', async (manager, target) => {
      await this.sessions.revokeUserSessions(target.id, { manager });
      if (!target.is_banned) {
        await manager.query('UPDATE users SET is_banned = true WHERE id = $1', [target.id]);
        await this.record(manager, actor, target, 'user.ban', { isBanned: false }, { isBanned: true });
      }
      return { signOut: target.id };
    });
  }

  unban(actor: Actor, userId: number): Promise<AdminUser> {
    return this.act(actor, userId, 'unban', async (manager, target) => {
      if (target.is_banned) {
        await manager.query('UPDATE users SET is_banned = false WHERE id = $1', [target.id]);
        await this.record(manager, actor, target, 'user.unban', { isBanned: true }, { isBanned: false });
      }
      return {};
    });
  }

  /** `username` has passed registration's rules (usernameSchema); 409 when another account has it. */
  async rename(actor: Actor, userId: number, username: string): Promise<AdminUser> {
    try {
      return await this.act(actor, userId, 'rename', async (manager, target) => {
        if (target.username === username) return {};
        const [taken] = await manager.query('SELECT 1 FROM users WHERE username = $1 AND id <> $2', [
          username,
          target.id,
        ]);
        if (taken) throw new ConflictException(USERNAME_TAKEN);
        await manager.query('UPDATE users SET username = $2, updated_at = now() WHERE id = $1', [
          target.id,
          username,
        ]);
        await this.record(manager, actor, target, 'user.rename', { username: target.username }, { username });
        return {};
      });
    } catch (error) {
      // Taken by a registration that committed after our check.
      if (isUsernameTaken(error)) throw new ConflictException(USERNAME_TAKEN);
      throw error;
    }
  }

  /** Removes the member's avatar (400 when there is none); the stored object goes once committed. */
  deleteAvatar(actor: Actor, userId: number): Promise<AdminUser> {
    return this.act(actor, userId, 'avatar', async (manager, target) => {
      if (!hasAvatar({ avatarUrl: target.avatar_url, profileImageUrl: target.profile_image_url }))
        throw new BadRequestException(ADMIN_MESSAGES.noAvatar);
      await manager.query(
        'UPDATE users SET avatar_url = NULL, profile_image_url = NULL, updated_at = now() WHERE id = $1',
        [target.id],
      );
      await this.record(
        manager,
        actor,
        target,
        'user.avatar_delete',
        { avatarUrl: target.avatar_url, profileImageUrl: target.profile_image_url },
        { avatarUrl: null, profileImageUrl: null },
      );
      return { removeAvatars: [target.avatar_url, target.profile_image_url] };
    });
  }

  /**
   * Deletes the account in one transaction. Their pastes, replies, chat lines and messages stay (their
   * author becomes NULL: shown as Anonymous); their votes, notifications and sessions go, and the scores
   * their votes gave are taken back so every kept counter stays right. Once committed, their sockets are
   * closed and their stored avatar removed.
   */
  async deleteUser(actor: Actor, userId: number): Promise<void> {
    let removeAvatars: Array<string | null> = [];
    await this.transaction(actor, userId, 'delete', async (manager, target) => {
      await this.votes.takeBackAllOf(manager, target.id);
      await this.record(
        manager,
        actor,
        target,
        'user.delete',
        {
          username: target.username,
          email: target.email,
          isAdmin: target.is_admin,
          isBanned: target.is_banned,
          reputation: target.reputation,
          threadCount: target.thread_count,
          replyCount: target.reply_count,
        },
        null,
      );
      // Sessions, votes, notifications and reset tokens cascade; authored rows keep a NULL author.
      await manager.query('DELETE FROM users WHERE id = $1', [target.id]);
      removeAvatars = [target.avatar_url, target.profile_image_url];
    });
    await this.afterCommit({ signOut: userId, removeAvatars });
  }

  /** Sets the VIP grades the member owns; an active grade no longer owned is cleared. */
  setGrades(actor: Actor, userId: number, grades: readonly PremiumRankName[]): Promise<AdminUser> {
    // Catalogue order, each once.
    const owned = PREMIUM_RANK_NAMES.filter((name) => grades.includes(name));
    return this.act(actor, userId, 'grades', async (manager, target) => {
      const active =
        target.active_premium_rank !== null && (owned as string[]).includes(target.active_premium_rank)
          ? target.active_premium_rank
          : null;
      const same =
        owned.length === target.owned_premium_ranks.length &&
        owned.every((name) => target.owned_premium_ranks.includes(name)) &&
        active === target.active_premium_rank;
      if (same) return {};
      await manager.query(
        'UPDATE users SET owned_premium_ranks = $2, active_premium_rank = $3, updated_at = now() WHERE id = $1',
        [target.id, owned, active],
      );
      await this.record(
        manager,
        actor,
        target,
        'user.grades',
        { ownedPremiumRanks: target.owned_premium_ranks, activePremiumRank: target.active_premium_rank },
        { ownedPremiumRanks: owned, activePremiumRank: active },
      );
      return {};
    });
  }

  /** Grants or revokes admin (the owner only; the owner's own role is fixed). */
  setAdmin(actor: Actor, userId: number, isAdmin: boolean): Promise<AdminUser> {
    return this.act(actor, userId, 'role', async (manager, target) => {
      if (target.is_admin === isAdmin) return {};
      await manager.query('UPDATE users SET is_admin = $2, updated_at = now() WHERE id = $1', [
        target.id,
        isAdmin,
      ]);
      await this.record(
        manager,
        actor,
        target,
        isAdmin ? 'user.admin_grant' : 'user.admin_revoke',
        { isAdmin: target.is_admin },
        { isAdmin },
      );
      return {};
    });
  }

  /** Runs `change` on the locked, permitted target; returns the account as it is after the commit. */
  private async act(
    actor: Actor,
    userId: number,
    action: AdminUserAction,
    change: (manager: EntityManager, target: TargetRow) => Promise<AfterCommit>,
  ): Promise<AdminUser> {
    let after: AfterCommit = {};
    const user = await this.transaction(actor, userId, action, async (manager, target) => {
      after = await change(manager, target);
      const [row]: AdminUserRow[] = await manager.query(
        `SELECT ${ADMIN_USER_COLUMNS} FROM users u WHERE u.id = $1`,
        [target.id],
      );
      return toAdminUser(row!);
    });
    await this.afterCommit(after);
    return user;
  }

  /** One transaction: the target locked (404 when missing), the permission table checked (403), then `work`. */
  private transaction<T>(
    actor: Actor,
    userId: number,
    action: AdminUserAction,
    work: (manager: EntityManager, target: TargetRow) => Promise<T>,
  ): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      const [target]: TargetRow[] = await manager.query(
        `SELECT id, username::text AS username, email::text AS email, is_admin, is_owner, is_banned, avatar_url,
           profile_image_url, owned_premium_ranks, active_premium_rank, reputation, thread_count, reply_count
         FROM users WHERE id = $1 FOR UPDATE`,
        [userId],
      );
      if (!target) throw new NotFoundException(ADMIN_MESSAGES.userNotFound);
      const refused = adminActionRefusal(
        actor,
        { id: target.id, isAdmin: target.is_admin, isOwner: target.is_owner },
        action,
      );
      if (refused) throw new ForbiddenException(refused);
      return work(manager, target);
    });
  }

  private record(
    manager: EntityManager,
    actor: Actor,
    target: TargetRow,
    action: AuditAction,
    before: AuditRecord['before'],
    after: AuditRecord['after'],
  ): Promise<void> {
    return this.audit.record(manager, actor, {
      action,
      targetType: 'user',
      targetId: target.id,
      targetLabel: target.username,
      before,
      after,
    });
  }

  /**
   * Tells every instance that pages changed (a member's name, avatar, grades, ban and votes show on
   * them), signs the member out live and removes stored avatars; a failure is logged, the action stands.
   */
  private async afterCommit({ signOut, removeAvatars = [] }: AfterCommit): Promise<void> {
    await announcePagesChanged(this.events, { all: true }, this.logger);
    if (signOut !== undefined) {
      await this.events
        .publish({ to: 'user', userId: signOut, event: { type: LIVE_EVENT.signedOut } })
        .catch((error: unknown) =>
          this.logger.warn(`Could not sign member ${signOut} out live: ${describe(error)}`),
        );
    }
    for (const url of new Set(removeAvatars)) {
      const key = url && this.storage ? this.storage.keyOfPublicUrl(url) : null;
      if (!key) continue;
      await this.storage!.delete(key).catch((error: unknown) =>
        this.logger.warn(`Could not remove the avatar object ${key}: ${describe(error)}`),
      );
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
