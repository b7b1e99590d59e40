import { aliveSql, readableSql } from './visibility.js';

/**
 * Read-only fragments through which other modules' lists join a paste or a reply in the same query (the
 * reputation ledger names what each row was for): the threads module's tables, its SQL.
 */

/**
 * Joins the paste `column` names as `alias` only when `viewer` (SQL: a parameter, or NULL for a
 * visitor) may read it (visibility.ts): a paste they may not read leaves its columns NULL, as a deleted
 * one. Its ref's columns are REF_COLUMNS(alias).
 */
export const readablePasteJoin = (alias: string, column: string, viewer: string) =>
  `LEFT JOIN threads ${alias} ON ${alias}.id = ${column} AND ${readableSql(alias, viewer)}`;

/** The paste `column` names is gone for every reader: deleted, expired or removed for good. */
export const pasteGone = (column: string) =>
  `NOT EXISTS (SELECT 1 FROM threads gone WHERE gone.id = ${column} AND ${aliveSql('gone')})`;

/** Joins the reply `column` names as `alias` (LEFT: a deleted reply leaves its columns NULL). */
export const replyJoin = (alias: string, column: string) =>
  `LEFT JOIN replies ${alias} ON ${alias}.id = ${column} AND ${alias}.deleted_at IS NULL`;
