import { BadRequestException } from '@nestjs/common';

/** The 400 message for a cursor this API did not hand out. */
export const INVALID_CURSOR = 'Invalid cursor';

const MIN_INT = -2_147_483_648;
const MAX_INT = 2_147_483_647;

/** A select expression: `alias.created_at` in microseconds since the epoch, as text (for the cursor). */
export const createdMicros = (alias: string) =>
  `(extract(epoch FROM ${alias}.created_at) * 1000000)::bigint::text`;

/**
 * A WHERE condition: rows of `alias` strictly after the position held by the parameters `$micros` and
 * `$id` in newest-first order.
 */
export const olderThan = (alias: string, micros: number, id: number) =>
  `(${alias}.created_at, ${alias}.id) < ('epoch'::timestamptz + $${micros}::bigint * interval '1 microsecond', $${id}::integer)`;

/**
 * A cursor key: `micros` (created_at in microseconds, as text: past a JS number's range) or `int`
 * (reputation).
 */
export type CursorKey = 'micros' | 'int';

const CURSOR_PATTERNS: Record<CursorKey, RegExp> = {
  micros: /^(-?\d{1,16}):(\d{1,10})$/,
  int: /^(-?\d{1,10}):(\d{1,10})$/,
};

/**
 * The one cursor codec of every keyset-paged list: the last row's sort key and id, `key:id` in base64url.
 * The client treats it as opaque and hands it back as `?cursor=`.
 */
export function encodeCursor(key: string | number, id: number): string {
  return Buffer.from(`${key}:${id}`).toString('base64url');
}

/** Reads a cursor; anything this API could not have handed out is a 400 `Invalid cursor`. */
export function decodeCursor(cursor: string, kind: CursorKey = 'micros'): { key: string; id: number } {
  const match = CURSOR_PATTERNS[kind].exec(Buffer.from(cursor, 'base64url').toString());
  const id = Number(match?.[2]);
  const key = Number(match?.[1]);
  if (!match || id > MAX_INT || (kind === 'int' && (key < MIN_INT || key > MAX_INT))) {
    throw new BadRequestException(INVALID_CURSOR);
  }
  return { key: match[1]!, id };
}

/** What a newest-first page query needs: the rows' alias, its select list and from clause, its filter. */
export interface KeysetPageQuery {
  /** Alias of the paged table in `from`: its created_at and id order the list. */
  alias: string;
  /** The select list; must include `createdMicros` (see createdMicros) and the alias's id. */
  select: string;
  from: string;
  /** The filter, with `params` as $1, $2, … */
  where: string;
  params: unknown[];
  pageSize: number;
  /** Where the previous page stopped (a cursor this API handed out), or none for the first page. */
  cursor?: string;
}

/**
 * One page of a newest-first list keyset-paged on (created_at, id): at most `pageSize` rows, and the
 * cursor of the next page (null on the last). A made-up cursor is a 400.
 */
export async function keysetPage<Row extends { createdMicros: string; id: number }>(
  query: (sql: string, params: unknown[]) => Promise<Row[]>,
  { alias, select, from, where, params, pageSize, cursor }: KeysetPageQuery,
): Promise<{ rows: Row[]; nextCursor: string | null }> {
  const after = cursor ? decodeCursor(cursor, 'micros') : undefined;
  const all = [...params, pageSize + 1];
  const limit = all.length;
  let condition = where;
  if (after) {
    all.push(after.key, after.id);
    condition = `(${where}) AND ${olderThan(alias, limit + 1, limit + 2)}`;
  }
  const rows = await query(
    `SELECT ${select} FROM ${from} WHERE ${condition}
     ORDER BY ${alias}.created_at DESC, ${alias}.id DESC LIMIT $${limit}`,
    all,
  );
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > pageSize && last ? encodeCursor(last.createdMicros, last.id) : null,
  };
}
