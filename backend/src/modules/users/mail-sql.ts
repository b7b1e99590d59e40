/*
 * Read-only fragments for the e-mail the mailings module sends: who may be mailed at all. Arguments are
 * SQL expressions.
 */

/**
 * Joins the member `column` names as `alias` when mail may go to them: their address verified (an
 * unverified one may be somebody else's), not banned. A deleted account has no row.
 */
export const mailableMemberJoin = (alias: string, column: string) =>
  `JOIN users ${alias} ON ${alias}.id = ${column} AND ${alias}.email_verified_at IS NOT NULL
    AND NOT ${alias}.is_banned`;

/** The members mail may go to, as `alias`, for a statement that starts from them. */
export const mailableMembersFrom = (alias: string) =>
  `(SELECT * FROM users WHERE email_verified_at IS NOT NULL AND NOT is_banned) ${alias}`;
