import { z } from 'zod';

/**
 * What PostgreSQL can store of a client's string, applied before validation so the value accepted is
 * the value stored: NUL dropped, lone UTF-16 surrogates replaced by U+FFFD (before the length checks).
 */
export function storableText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value.replaceAll('\0', '').replace(LONE_SURROGATE, '\ufffd');
}
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The largest id a PostgreSQL `integer` column holds. */
export const ID_MAX = 2_147_483_647;

/** The id of a row (`integer GENERATED ALWAYS AS IDENTITY`): a larger number can name no row. */
export const rowId = z.number().int().positive().max(ID_MAX);
