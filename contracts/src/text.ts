import { z } from 'zod';

/**
 * What PostgreSQL can store of a string a client sent, applied before validation so the value a schema
 * accepts is exactly the value stored and read back: NUL characters dropped (text cannot hold them), and
 * lone UTF-16 surrogates (a JSON body may carry `"\ud800"`; UTF-8 cannot) replaced by U+FFFD, as the
 * database driver's encoding would replace them anyway, only now before the length checks and visibly.
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
