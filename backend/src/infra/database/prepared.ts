import { DataSource, type EntityManager, QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { checkLockSequence, type LockingSql, type LockKind, takeLocks } from './lock-order.js';

declare const rowOf: unique symbol;
declare const paramsOf: unique symbol;

/**
 * A named statement, planned once per connection, declared once at module level (docs/backend.md).
 * `R` is a row it answers, `P` its parameters, carried as type-only functions so that a statement of
 * one row type is not taken for another; queryPrepared infers both.
 */
export interface PreparedStatement<R, P extends readonly unknown[]> {
  readonly name: string;
  readonly text: string;
  /** The row locks it takes, in order (lock-order.ts): declared by queryPrepared before it runs. */
  readonly locks: readonly LockKind[];
  readonly [rowOf]?: (row: R) => R;
  readonly [paramsOf]?: (params: P) => P;
}

const declared = new Map<string, string>();

/**
 * Declares statement `name`: `text` as is, or composed of parts that take row locks (lockingSql), whose
 * order is checked here.
 */
export function prepare<R, P extends readonly unknown[]>(
  name: string,
  text: string | LockingSql,
): PreparedStatement<R, P> {
  const sql = typeof text === 'string' ? text : text.sql;
  const locks = typeof text === 'string' ? [] : checkLockSequence(name, text.locks);
  if (declared.has(name) && declared.get(name) !== sql) {
    throw new Error(`prepared statement "${name}" declared twice with different texts`);
  }
  declared.set(name, sql);
  return { name, text: sql, locks };
}

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a prepared statement as `manager.query` would: in the manager's transaction if any, else pooled;
 * slow ones logged; errors as TypeORM's QueryFailedError, so callers handle both alike.
 */
export async function queryPrepared<R, P extends readonly unknown[]>(
  db: DataSource | EntityManager,
  statement: PreparedStatement<R, P>,
  params: NoInfer<P>,
): Promise<R[]> {
  if (statement.locks.length > 0) takeLocks(db, statement.locks);
  const dataSource = db instanceof DataSource ? db : db.connection;
  const runner = db instanceof DataSource ? undefined : db.queryRunner;
  try {
    // In a transaction, its connection (never another one once it is released); else the pool's.
    if (runner?.isReleased) throw new QueryRunnerAlreadyReleasedError();
    const client: PgQueryable = runner
      ? await (runner as unknown as { connect(): Promise<PgQueryable> }).connect()
      : (dataSource.driver as unknown as { master: PgQueryable }).master;
    const started = Date.now();
    const result = await client.query({ name: statement.name, text: statement.text, values: [...params] });
    const took = Date.now() - started;
    const slow = dataSource.options.maxQueryExecutionTime;
    if (slow && took > slow) dataSource.logger.logQuerySlow(took, statement.text, [...params]);
    return result.rows as R[];
  } catch (error) {
    if (error instanceof QueryRunnerAlreadyReleasedError) throw error;
    throw new QueryFailedError(statement.text, [...params], error as Error);
  }
}
