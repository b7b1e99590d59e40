import { BadRequestException } from '@nestjs/common';

/** The 400 message for a cursor this API did not hand out. */
export const INVALID_CURSOR = 'Invalid cursor';

const MAX_INT = 2_147_483_647;

/**
 * Where a newest-first list keyset-paged on (created_at, id) stopped: created_at in microseconds since the
 * epoch (as text: beyond a JS number's exact range) and the row id.
 */
export interface KeysetPosition {
  micros: string;
  id: number;
}

/** A select expression: `alias.created_at` in microseconds since the epoch, as text (for the cursor). */
export const createdMicros = (alias: string) =>
  `(extract(epoch FROM ${alias}.created_at) * 1000000)::bigint::text`;

/**
 * A WHERE condition: rows of `alias` strictly after the position held by the parameters `$micros` and
 * `$id` in newest-first order.
 */
export const olderThan = (alias: string, micros: number, id: number) =>
  `(${alias}.created_at, ${alias}.id) < ('epoch'::timestamptz + $${micros}::bigint * interval '1 microsecond', $${id}::integer)`;

/** The opaque cursor of a row (its `created_micros` and id). */
export function encodeKeysetCursor(position: KeysetPosition): string {
  return Buffer.from(`${position.micros}:${position.id}`).toString('base64url');
}

/** Reads a cursor; anything this API could not have handed out is a 400 `Invalid cursor`. */
export function decodeKeysetCursor(cursor: string): KeysetPosition {
  const match = /^(-?\d{1,16}):(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString());
  const id = Number(match?.[2]);
  if (!match || id > MAX_INT) throw new BadRequestException(INVALID_CURSOR);
  return { micros: match[1]!, id };
}

/** A query parameter as one string; absent, empty or repeated counts as absent. */
export function singleQueryValue(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** What a newest-first page query needs: the rows' alias, its select list and from clause, its filter. */
export interface KeysetPageQuery {
  /** Alias of the paged table in `from`: its created_at and id order the list. */
  alias: string;
  /** The select list; must include `created_micros` (see createdMicros) and the alias's id. */
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
export async function keysetPage<Row extends { created_micros: string; id: number }>(
  query: (sql: string, params: unknown[]) => Promise<Row[]>,
  { alias, select, from, where, params, pageSize, cursor }: KeysetPageQuery,
): Promise<{ rows: Row[]; nextCursor: string | null }> {
  const after = cursor ? decodeKeysetCursor(cursor) : undefined;
  const all = [...params, pageSize + 1];
  const limit = all.length;
  let condition = where;
  if (after) {
    all.push(after.micros, after.id);
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
    nextCursor:
      rows.length > pageSize && last
        ? encodeKeysetCursor({ micros: last.created_micros, id: last.id })
        : null,
  };
}
