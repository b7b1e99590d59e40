import { ConflictException, Injectable } from '@nestjs/common';
import { ADMIN_USERS_PAGE_SIZE, type AdminUser, type AdminUsersPage } from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { violatedUniqueConstraint } from '../../common/unique-violation.js';
import { keysetPage } from '../../common/keyset-cursor.js';
import { containsPattern } from '../../common/like-pattern.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { User } from './entities/user.entity.js';
import { ADMIN_USER_SELECT, type AdminUserRow, toAdminUser } from './user-rows.js';
import { USERNAME_TAKEN } from './users.service.js';

/** A ban's or a silence's end (null: a ban for ever) and reason, as staff set it. */
export interface SuspensionState {
  until: Date | null;
  reason: string | null;
}

/** A suspension a lift ended: whose (name and address now), and the end it had. */
export type LiftedSuspension = Row<User, 'username' | 'email'> & { until: Date };

type SuspensionKind = 'ban' | 'silence';

/** Each suspension's end column, what lifting it clears, and which rows have one to lift (over `u`). */
const LIFTS = {
  ban: {
    column: 'banned_until',
    clear: 'is_banned = false, banned_until = NULL, ban_reason = NULL',
    only: 'u.is_banned AND ',
  },
  silence: { column: 'silenced_until', clear: 'silenced_until = NULL, silence_reason = NULL', only: '' },
} as const satisfies Record<SuspensionKind, { column: string; clear: string; only: string }>;

const LIFTED_WHOSE = selectColumns(User, 'u', ['username', 'email']);

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
        select: ADMIN_USER_SELECT,
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
      `SELECT ${ADMIN_USER_SELECT} FROM users u WHERE u.id = $1`,
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
  liftEndedBan(manager: EntityManager, userId: number, until: Date | null): Promise<LiftedSuspension | null> {
    return this.liftEnded(manager, 'ban', userId, until);
  }

  /** As liftEndedBan, for a silence. */
  liftEndedSilence(
    manager: EntityManager,
    userId: number,
    until: Date | null,
  ): Promise<LiftedSuspension | null> {
    return this.liftEnded(manager, 'silence', userId, until);
  }

  private async liftEnded(
    manager: EntityManager,
    kind: SuspensionKind,
    userId: number,
    until: Date | null,
  ): Promise<LiftedSuspension | null> {
    const { column, clear, only } = LIFTS[kind];
    const rows: LiftedSuspension[] = await manager.query(
      `WITH old AS (SELECT id, ${column} FROM users WHERE id = $1),
       lifted AS (
         UPDATE users u SET ${clear} FROM old
         WHERE u.id = old.id AND ${only}u.${column} <= now()
           AND ($2::timestamptz IS NULL OR u.${column} = $2)
         RETURNING ${LIFTED_WHOSE}, old.${column} AS until)
       SELECT * FROM lifted`,
      [userId, until],
    );
    return rows[0] ?? null;
  }

  /** Members whose timed ban (`ban`) or silence has ended and is not lifted yet, at most `limit`. */
  async endedSuspensions(kind: SuspensionKind, limit: number): Promise<number[]> {
    const { column, only } = LIFTS[kind];
    const rows: Array<Row<User, 'id'>> = await this.dataSource.query(
      `SELECT u.id FROM users u WHERE ${only}u.${column} <= now() ORDER BY u.${column} LIMIT $1`,
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
  async setRanks(
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
