/*
 * What a module's SQL fragment takes from the statement that composes it, typed, so a fragment is handed
 * a placeholder or a column, not any text.
 */

/** A placeholder of the statement: `$1`, or cast, `$7::text`. */
export type Param = `$${number}` | `$${number}::${string}`;

/** A column of a table or CTE the statement names: `s.id`. */
export type ColumnRef = `${string}.${string}`;

/** A scalar subquery over an earlier CTE of the statement: `(SELECT points FROM given)`. */
export type Subquery = `(SELECT ${string})`;

/** A value a fragment reads: a placeholder, a column, a subquery, or NULL. */
export type Operand = Param | ColumnRef | Subquery | 'NULL';

/** A name of the statement's (a CTE, a table, a column), checked where the statement is built. */
export function sqlName(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not an SQL name: "${name}"`);
  return name;
}
