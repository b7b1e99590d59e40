import { ConflictException, Injectable } from '@nestjs/common';
import { ADMIN_USERS_PAGE_SIZE, type AdminUser, type AdminUsersPage } from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { violatedUniqueConstraint } from '../../common/unique-violation.js';
import { createdMicros, keysetPage } from '../../common/keyset-cursor.js';
import { containsPattern } from '../../common/like-pattern.js';
import { ownedActiveRank } from './author-sql.js';
import { bannedNow } from './user-sql.js';
import { USERNAME_TAKEN } from './users.service.js';

/** Banned now, in SQL over `u`: a timed ban whose end has passed counts as lifted before its job runs. */
const BANNED_NOW = bannedNow('u');
/** Silenced now, in SQL over `u`. */
const SILENCED_NOW = '(u.silenced_until IS NOT NULL AND u.silenced_until > now())';

/** A ban's or a silence's end (null: a ban for ever) and reason, as staff set it. */
export interface SuspensionState {
  until: Date | null;
  reason: string | null;
}

/** A member as the admin panel's users table shows them (contracts' adminUserSchema). */
const ADMIN_USER_COLUMNS = `u.id, u.username::text AS username, u.email::text AS email, u.first_name, u.last_name,
  u.avatar_url, u.profile_image_url, u.reputation, ${ownedActiveRank('u')} AS active_premium_rank,
  u.owned_premium_ranks, u.is_admin, u.is_owner, ${BANNED_NOW} AS is_banned,
  CASE WHEN ${BANNED_NOW} THEN u.banned_until END AS banned_until, CASE WHEN ${BANNED_NOW} THEN u.ban_reason END AS ban_reason,
  CASE WHEN ${SILENCED_NOW} THEN u.silenced_until END AS silenced_until,
  CASE WHEN ${SILENCED_NOW} THEN u.silence_reason END AS silence_reason,
  u.created_at, ${createdMicros('u')} AS "createdMicros"`;

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
  banned_until: Date | null;
  ban_reason: string | null;
  silenced_until: Date | null;
  silence_reason: string | null;
  created_at: Date;
  createdMicros: string;
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
    bannedUntil: row.banned_until?.toISOString() ?? null,
    banReason: row.ban_reason,
    silencedUntil: row.silenced_until?.toISOString() ?? null,
    silenceReason: row.silence_reason,
    createdAt: row.created_at.toISOString(),
  };
}

function isUsernameTaken(error: unknown): boolean {
  return violatedUniqueConstraint(error) === 'users_username_key';
}

/**
 * The admin panel's reads and writes of accounts. Each change runs in the caller's transaction, where the
 * admin module locked the row, checked the permission table and writes the audit entry.
 */
@Injectable()
export class UserAdminService {
  constructor(private readonly dataSource: DataSource) {}

  /** Newest members first, ADMIN_USERS_PAGE_SIZE a page; `q` keeps those whose username or e-mail contains it. */
  async page(q: string, cursor?: string): Promise<AdminUsersPage> {
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

  /** Member `userId` as the users table shows them, read in `manager`'s transaction (they exist). */
  async view(manager: EntityManager, userId: number): Promise<AdminUser> {
    const [row]: AdminUserRow[] = await manager.query(
      `SELECT ${ADMIN_USER_COLUMNS} FROM users u WHERE u.id = $1`,
      [userId],
    );
    return toAdminUser(row!);
  }

  /**
   * Bans the member with `ban` (its end, null: for ever, and its reason), or unbans them (null); their
   * sessions are auth's: the caller revokes them.
   */
  async setBan(manager: EntityManager, userId: number, ban: SuspensionState | null): Promise<void> {
    await manager.query('UPDATE users SET is_banned = $2, banned_until = $3, ban_reason = $4 WHERE id = $1', [
      userId,
      ban !== null,
      ban?.until ?? null,
      ban?.reason ?? null,
    ]);
  }

  /** Silences the member until `silence.until` with its reason, or lifts the silence (null). */
  async setSilence(manager: EntityManager, userId: number, silence: SuspensionState | null): Promise<void> {
    await manager.query('UPDATE users SET silenced_until = $2, silence_reason = $3 WHERE id = $1', [
      userId,
      silence?.until ?? null,
      silence?.reason ?? null,
    ]);
  }

  /**
   * Lifts the member's timed ban once it has ended, if it is still the one that ends at `until` (a newer
   * ban, an unban, a ban for ever are left alone; null: whichever has ended); what it lifted, else null.
   */
  async liftEndedBan(
    manager: EntityManager,
    userId: number,
    until: Date | null,
  ): Promise<{ username: string; email: string; until: Date } | null> {
    const rows: Array<{ username: string; email: string; until: Date }> = await manager.query(
      `WITH old AS (SELECT id, banned_until FROM users WHERE id = $1),
       lifted AS (
         UPDATE users u SET is_banned = false, banned_until = NULL, ban_reason = NULL FROM old
         WHERE u.id = old.id AND u.is_banned AND u.banned_until <= now()
           AND ($2::timestamptz IS NULL OR u.banned_until = $2)
         RETURNING u.username::text AS username, u.email::text AS email, old.banned_until AS until)
       SELECT username, email, until FROM lifted`,
      [userId, until],
    );
    return rows[0] ?? null;
  }

  /** As liftEndedBan, for a silence. */
  async liftEndedSilence(
    manager: EntityManager,
    userId: number,
    until: Date | null,
  ): Promise<{ username: string; email: string; until: Date } | null> {
    const rows: Array<{ username: string; email: string; until: Date }> = await manager.query(
      `WITH old AS (SELECT id, silenced_until FROM users WHERE id = $1),
       lifted AS (
         UPDATE users u SET silenced_until = NULL, silence_reason = NULL FROM old
         WHERE u.id = old.id AND u.silenced_until <= now()
           AND ($2::timestamptz IS NULL OR u.silenced_until = $2)
         RETURNING u.username::text AS username, u.email::text AS email, old.silenced_until AS until)
       SELECT username, email, until FROM lifted`,
      [userId, until],
    );
    return rows[0] ?? null;
  }

  /** Members whose timed ban (`ban`) or silence has ended and is not lifted yet, at most `limit`. */
  async endedSuspensions(kind: 'ban' | 'silence', limit: number): Promise<number[]> {
    const column = kind === 'ban' ? 'banned_until' : 'silenced_until';
    const rows: Array<{ id: number }> = await this.dataSource.query(
      `SELECT id FROM users
       WHERE ${kind === 'ban' ? 'is_banned AND ' : ''}${column} <= now() ORDER BY ${column} LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  /** Renames the member; 409 `Username is already taken` when another account has the name, in any letter case. */
  async rename(manager: EntityManager, userId: number, username: string): Promise<void> {
    const [taken] = await manager.query('SELECT 1 FROM users WHERE username = $1 AND id <> $2', [
      username,
      userId,
    ]);
    if (taken) throw new ConflictException(USERNAME_TAKEN);
    try {
      await manager.query('UPDATE users SET username = $2, updated_at = now() WHERE id = $1', [
        userId,
        username,
      ]);
    } catch (error) {
      // Taken by a registration that committed after our check.
      if (isUsernameTaken(error)) throw new ConflictException(USERNAME_TAKEN);
      throw error;
    }
  }

  /** Clears both of the member's avatar addresses (the stored objects are the caller's to remove). */
  async clearAvatar(manager: EntityManager, userId: number): Promise<void> {
    await manager.query(
      'UPDATE users SET avatar_url = NULL, profile_image_url = NULL, updated_at = now() WHERE id = $1',
      [userId],
    );
  }

  /** Sets the VIP grades the member owns and the active one (null: none). */
  async setGrades(
    manager: EntityManager,
    userId: number,
    owned: readonly string[],
    active: string | null,
  ): Promise<void> {
    await manager.query(
      'UPDATE users SET owned_premium_ranks = $2, active_premium_rank = $3, updated_at = now() WHERE id = $1',
      [userId, owned, active],
    );
  }

  /** Grants or revokes the admin role. */
  async setAdmin(manager: EntityManager, userId: number, isAdmin: boolean): Promise<void> {
    await manager.query('UPDATE users SET is_admin = $2, updated_at = now() WHERE id = $1', [
      userId,
      isAdmin,
    ]);
  }

  /**
   * Deletes the account: its sessions, votes, notifications and reset tokens cascade; the rows it
   * authored keep a NULL author. Whatever counts its votes gave is the caller's to take back first.
   */
  async delete(manager: EntityManager, userId: number): Promise<void> {
    await manager.query('DELETE FROM users WHERE id = $1', [userId]);
  }
}
