import { DataSource, type EntityManager, QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';

/**
 * A named statement, planned once per connection: for hot statements where planning costs more than
 * running. Declare it once, at module level (a name stands for one text). docs/backend.md.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

const declared = new Map<string, string>();

export function prepare(name: string, text: string): PreparedStatement {
  if (declared.has(name) && declared.get(name) !== text) {
    throw new Error(`prepared statement "${name}" declared twice with different texts`);
  }
  declared.set(name, text);
  return { name, text };
}

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a prepared statement as `manager.query` would: in the manager's transaction if any, else pooled;
 * slow ones logged; errors as TypeORM's QueryFailedError, so callers handle both alike.
 */
export async function queryPrepared<T>(
  db: DataSource | EntityManager,
  statement: PreparedStatement,
  params: readonly unknown[],
): Promise<T[]> {
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
    return result.rows as T[];
  } catch (error) {
    if (error instanceof QueryRunnerAlreadyReleasedError) throw error;
    throw new QueryFailedError(statement.text, [...params], error as Error);
  }
}
