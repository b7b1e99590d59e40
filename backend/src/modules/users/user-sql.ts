/*
 * The users module's SQL fragments for other modules' one-round-trip statements (a new paste counted on
 * its author, reputation beside its ledger row, a message only while its recipient exists). The caller
 * composes them into its WITH or FROM; arguments are SQL (`$1` or expressions).
 */

/**
 * Member `id`'s row, locked until the transaction ends (FOR NO KEY UPDATE: the lock a reputation change
 * takes first, see the lock order in ranks/reputation.service.ts); no row for a deleted member.
 */
export const lockedUser = (id: string) => `SELECT id FROM users WHERE id = ${id} FOR NO KEY UPDATE`;

/** The id of the member whose e-mail address is `email` (any letter case), none when nobody's is. */
export const userIdByEmail = (email: string) => `SELECT id FROM users WHERE email = (${email})::citext`;

/** Member `id`'s row (its `id`), none once the account is deleted. */
export const existingUser = (id: string) => `SELECT id FROM users WHERE id = ${id}`;

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
export const staffExcept = (except: string) =>
  `SELECT id FROM users u WHERE (u.is_owner OR u.is_admin) AND NOT ${bannedNow('u')} AND u.id <> ${except}`;

/**
 * An UPDATE of member `id`'s reputation by `points` when `when` holds; with `newPaste` their paste count
 * rises in the same row change (a row changed twice in one statement keeps one change). The caller adds
 * its RETURNING.
 */
export const moveReputation = ({
  id,
  points,
  when,
  newPaste = false,
}: {
  id: string;
  points: string;
  when?: string;
  newPaste?: boolean | string;
}) =>
  `UPDATE users SET ${
    newPaste === false
      ? ''
      : `thread_count = thread_count + ${newPaste === true ? '1' : `(${newPaste})::int`}, `
  }reputation = reputation + ${points}
   WHERE id = ${id}${when === undefined ? '' : ` AND ${when}`}`;
