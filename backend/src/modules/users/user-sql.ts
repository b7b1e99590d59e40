import { locking, type LockingSql } from '../../infra/database/lock-order.js';
import type { Param, Subquery } from '../../infra/database/sql-operands.js';

/*
 * The users module's SQL fragments for other modules' one-round-trip statements (a new paste counted on
 * its author, reputation beside its ledger row, a message only while its recipient exists). The caller
 * composes them into its WITH or FROM; those that lock a row say so (lock-order.ts).
 */

/**
 * Member `id`'s row, locked until the transaction ends (FOR NO KEY UPDATE: the lock a reputation change
 * takes before the member's reputation_daily row); no row for a deleted member.
 */
export const lockedUser = (id: Param): LockingSql =>
  locking(`SELECT id FROM users WHERE id = ${id} FOR NO KEY UPDATE`, 'user');

/** The id of the member whose e-mail address is `email` (any letter case), none when nobody's is. */
export const userIdByEmail = (email: Param) => `SELECT id FROM users WHERE email = (${email})::citext`;

/** Member `id`'s row (its `id`), none once the account is deleted. */
export const existingUser = (id: Param) => `SELECT id FROM users WHERE id = ${id}`;

/**
 * Whether the member of `alias` is banned now, in SQL: a timed ban whose end has passed counts as lifted
 * before the job that lifts it has run (as withEndedLifted has it for a loaded account).
 */
export const bannedNow = (alias: string) =>
  `(${alias}.is_banned AND (${alias}.banned_until IS NULL OR ${alias}.banned_until > now()))`;

/** Whether member `id` is staff (the owner or an admin), as an SQL boolean. */
export const staffUserSql = (id: string) =>
  `EXISTS (SELECT 1 FROM users WHERE id = ${id} AND (is_owner OR is_admin))`;

/** The staff a support request goes to: the owner and every admin but `except`, not banned, by id. */
export const staffExcept = (except: Param) =>
  `SELECT id FROM users u WHERE (u.is_owner OR u.is_admin) AND NOT ${bannedNow('u')} AND u.id <> ${except}`;

/** How much a reputation moves: a parameter, or a subquery over an earlier CTE (negated, or 0 for none). */
export type ReputationPoints = Param | Subquery | `-${Subquery}` | `COALESCE(${Subquery}, 0)`;

/**
 * An UPDATE of member `id`'s reputation by `points` (`skipZero`: only when it moves); `newPaste` raises
 * their paste count in the same row change, always or when that condition holds. Locks the member's row
 * unless `held` (the statement's lockedUser did). The caller adds its RETURNING.
 */
export const moveReputation = ({
  id,
  points,
  skipZero = false,
  newPaste = false,
  held = false,
}: {
  id: Param;
  points: ReputationPoints;
  skipZero?: boolean;
  newPaste?: boolean | `${Param} ${string}`;
  held?: boolean;
}): LockingSql =>
  locking(
    `UPDATE users SET ${
      newPaste === false
        ? ''
        : `thread_count = thread_count + ${newPaste === true ? '1' : `(${newPaste})::int`}, `
    }reputation = reputation + ${points}
   WHERE id = ${id}${skipZero ? ` AND ${points} <> 0` : ''}`,
    ...(held ? [] : (['user'] as const)),
  );
