/**
 * Read-only fragments through which other modules' lists join a paste or a reply in the same query (the
 * reputation ledger names what each row was for): the threads module's tables, its SQL.
 */

/**
 * Joins the paste `column` names as `alias` (LEFT: a deleted paste, in the trash or gone, leaves its
 * columns NULL).
 */
export const pasteJoin = (alias: string, column: string) =>
  `LEFT JOIN threads ${alias} ON ${alias}.id = ${column} AND ${alias}.deleted_at IS NULL`;

/** Joins the reply `column` names as `alias` (LEFT: a deleted reply leaves its columns NULL). */
export const replyJoin = (alias: string, column: string) =>
  `LEFT JOIN replies ${alias} ON ${alias}.id = ${column} AND ${alias}.deleted_at IS NULL`;
