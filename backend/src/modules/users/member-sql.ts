/*
 * The users module's fragments for other modules' statements that must stay one round trip: a new
 * paste counted on its author's row, reputation moved beside its ledger row, a message inserted only
 * while its recipient exists. The SQL on `users` is written here, by the module that owns the table; the
 * caller composes it into its own statement (its WITH list or FROM). Arguments are SQL: parameters
 * (`$1`) or expressions of the caller's statement. Lists that show authors join through author-sql.ts.
 */

/**
 * Member `id`'s row, locked until the transaction ends (FOR NO KEY UPDATE: the lock a reputation change
 * takes first, see the lock order in ranks/reputation.service.ts); no row for a deleted member.
 */
export const lockedMember = (id: string) => `SELECT id FROM users WHERE id = ${id} FOR NO KEY UPDATE`;

/** The id of the member whose e-mail address is `email` (any letter case), none when nobody's is. */
export const memberIdByEmail = (email: string) => `SELECT id FROM users WHERE email = (${email})::citext`;

/** Member `id`'s row (its `id`), none once the account is deleted. */
export const existingMember = (id: string) => `SELECT id FROM users WHERE id = ${id}`;

/**
 * Whether the member of `alias` is banned now, in SQL: a timed ban whose end has passed counts as lifted
 * before the job that lifts it has run (as withEndedLifted has it for a loaded account).
 */
export const bannedNow = (alias: string) =>
  `(${alias}.is_banned AND (${alias}.banned_until IS NULL OR ${alias}.banned_until > now()))`;

/** Whether member `id` is staff (the owner or an admin), as an SQL boolean. */
export const staffMemberSql = (id: string) =>
  `EXISTS (SELECT 1 FROM users WHERE id = ${id} AND (is_owner OR is_admin))`;

/**
 * The staff a support request goes to (SPEC §6): the owner and every admin, except member `except` and
 * banned accounts, by id.
 */
export const staffExcept = (except: string) =>
  `SELECT id FROM users u WHERE (u.is_owner OR u.is_admin) AND NOT ${bannedNow('u')} AND u.id <> ${except}`;

/**
 * An UPDATE of member `id`'s reputation by `points` (an SQL expression), only `when` it holds; with
 * `newPaste` (true, or an SQL boolean: whether the new paste is listed), their paste count goes up by one
 * in the same row change (a row changed twice in one statement keeps one change). The caller adds its
 * RETURNING (`reputation`, the row's new sum).
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
