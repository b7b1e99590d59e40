import { randomBytes } from 'node:crypto';
import { NotFoundException } from '@nestjs/common';
import { POST_MESSAGES, parsePasteRef, type PasteRef, pasteRefOf } from '@termpaste/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { takeLock } from '../../infra/database/lock-order.js';
import { columnName, type Row, selectColumns } from '../../infra/database/columns.js';
import { Paste } from './entities/paste.entity.js';

/*
 * Who may read a paste, in SQL: the one home of the rule (contracts' visibility.ts says it in
 * TypeScript). Every query that can return or reveal a paste uses these fragments, with `alias` the
 * paste's table alias.
 */

/** The paste exists for readers: not in the trash, not expired (checked at read time, to the instant). */
export const aliveSql = (alias: string): string =>
  `${alias}.deleted_at IS NULL AND (${alias}.expires_at IS NULL OR ${alias}.expires_at > now())`;

/**
 * Lists may show it: public, not burning after reading, not hidden pending review, alive. `listed` is
 * the generated column the lists' partial indexes are built on, so say it as it is for the planner to
 * use them.
 */
export const listedSql = (alias: string): string =>
  `${alias}.listed AND (${alias}.expires_at IS NULL OR ${alias}.expires_at > now())`;

/**
 * `viewer` (an SQL expression: a parameter such as `$2`, NULL for a visitor) may open it by its link:
 * alive, not private and not hidden pending review, unless it is theirs.
 */
export const readableSql = (alias: string, viewer: string): string =>
  // IS TRUE: a visitor (NULL) reading a private or hidden paste is a plain no, not SQL's unknown.
  `${aliveSql(alias)} AND ((${alias}.visibility <> 'private' AND ${alias}.hidden_at IS NULL) OR (${alias}.author_id = ${viewer}) IS TRUE)`;

/** The Paste properties a ref is made of, by the names REF_COLUMNS gives them beside a row's own. */
const REF_NAMES = {
  pasteKey: 'key',
  pasteVisibility: 'visibility',
  pasteBurns: 'burnAfterReading',
} as const satisfies Record<string, keyof Paste>;

/** A paste's ref columns in a row (REF_COLUMNS): the Paste's own types under REF_NAMES' names. */
export type RefRow = { -readonly [K in keyof typeof REF_NAMES]: Paste[(typeof REF_NAMES)[K]] };

const REF_SELECT = Object.entries(REF_NAMES).map(
  ([as, property]) => [columnName(Paste, property), as] as const,
);

/**
 * The columns a paste's ref is made of, to select beside others: `refOf(id, row)` gives the ref (its
 * number while public, else its key).
 */
export const REF_COLUMNS = (alias: string): string =>
  REF_SELECT.map(([column, as]) => `${alias}.${column} AS "${as}"`).join(', ');

/** The ref of the paste numbered `id` whose REF_COLUMNS are in `row`. */
export function refOf(id: number, row: RefRow): PasteRef {
  return pasteRefOf({
    id,
    key: row.pasteKey,
    visibility: row.pasteVisibility,
    burnAfterReading: row.pasteBurns,
  });
}

/** A new key: 16 random bytes, base64url (22 characters). */
export function newPasteKey(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The SQL condition that finds the paste a route's `{id}` names, with the ref as `$<param>`: a number
 * names a paste only while it is public and does not burn (else its number would find it by counting);
 * a key names its paste whatever its visibility.
 */
export function refWhere(alias: string, ref: PasteRef, param: number): string {
  return typeof ref === 'number'
    ? `${alias}.id = $${param} AND ${alias}.visibility = 'public' AND NOT ${alias}.burn_after_reading`
    : `${alias}.key = $${param}`;
}

/** A route's `{id}` as a ref, or 404 'Thread not found' for what can name no paste. */
export function pasteRefParam(raw: string): PasteRef {
  const ref = parsePasteRef(raw);
  if (ref === null) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
  return ref;
}

const RESOLVED_COLUMNS = [
  'id',
  'authorId',
  'visibility',
  'burnAfterReading',
  'key',
  'isLocked',
  'expiresAt',
] as const;
const RESOLVED_SELECT = selectColumns(Paste, 't', RESOLVED_COLUMNS);

export type ResolvedPaste = Row<Paste, (typeof RESOLVED_COLUMNS)[number]>;

/**
 * The paste `raw` names that `viewerId` (null: a visitor) may read, or 404 'Thread not found' — exactly
 * as for a paste that does not exist, so a private, expired or deleted paste cannot be told from none.
 * `lock`: `FOR UPDATE` (inside a transaction's `manager`).
 */
export async function resolvePaste(
  db: DataSource | EntityManager,
  raw: string | PasteRef,
  viewerId: number | null,
  { lock = false } = {},
): Promise<ResolvedPaste> {
  const ref = typeof raw === 'string' ? pasteRefParam(raw) : raw;
  if (lock) takeLock(db, 'paste');
  const [row]: ResolvedPaste[] = await db.query(
    `SELECT ${RESOLVED_SELECT}
     FROM threads t WHERE ${refWhere('t', ref, 1)} AND ${readableSql('t', '$2::int')}
     ${lock ? 'FOR UPDATE' : ''}`,
    [ref, viewerId],
  );
  if (!row) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
  return row;
}

/**
 * The paste of reply `replyId` when `viewerId` may read it: 404 'Reply not found' for no such reply,
 * 404 'Thread not found' for a reply on a paste the viewer may not read (as every paste route answers).
 */
export async function resolveReplyPaste(
  db: DataSource | EntityManager,
  replyId: number,
  viewerId: number | null,
): Promise<{ threadId: number; authorId: number | null }> {
  const [row]: Array<{ threadId: number; authorId: number | null; readable: boolean }> = await db.query(
    `SELECT r.thread_id AS "threadId", t.author_id AS "authorId", (${readableSql('t', '$2::int')}) AS readable
     FROM replies r JOIN threads t ON t.id = r.thread_id WHERE r.id = $1 AND r.deleted_at IS NULL`,
    [replyId, viewerId],
  );
  if (!row) throw new NotFoundException(POST_MESSAGES.replyNotFound);
  if (!row.readable) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
  return { threadId: row.threadId, authorId: row.authorId };
}

/**
 * Which of `refs` name a paste `viewerId` (null: a visitor) may read: its number, mapped to the ref it
 * was named by (the live socket joins the paste's room by number and names it by that ref).
 */
export async function readablePastes(
  db: DataSource | EntityManager,
  refs: readonly PasteRef[],
  viewerId: number | null,
): Promise<Map<number, PasteRef>> {
  const numbers = refs.filter((ref): ref is number => typeof ref === 'number');
  const keys = refs.filter((ref): ref is string => typeof ref === 'string');
  if (numbers.length === 0 && keys.length === 0) return new Map();
  const rows: Array<Row<Paste, 'id' | 'key'>> = await db.query(
    `SELECT t.id, t.key FROM threads t
     WHERE ((t.id = ANY ($1::int[]) AND t.visibility = 'public' AND NOT t.burn_after_reading)
         OR t.key = ANY ($2::text[]))
       AND ${readableSql('t', '$3::int')}`,
    [numbers, keys, viewerId],
  );
  const named = new Set<PasteRef>(refs);
  return new Map(
    rows.map((row) => [row.id, row.key !== null && named.has(row.key) ? row.key : row.id] as const),
  );
}
