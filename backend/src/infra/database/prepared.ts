import { DataSource, type EntityManager, QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';

/**
 * A named statement: PostgreSQL parses and plans it once per connection, and from then on only binds
 * and runs it. For the statements every request or write runs, where planning costs more than running:
 * a new paste's statement (six steps in one) ran 2,770 times a second prepared against 1,570 unprepared
 * on pgbench here (bench/README.md). A name stands for one text for the process's life (pg keeps the
 * pair per connection), so statements are declared once, at module level, by `prepare`.
 *
 * Behind PgBouncer in transaction mode, set its `max_prepared_statements` (1.21+): it then prepares them
 * on whichever server connection runs them.
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
 * Runs a prepared statement as `manager.query` would run its text: inside the manager's transaction if
 * it is in one, else on a pooled connection (each keeps an error listener: data-source.options.ts); the
 * rows back; a slow one logged; an error as TypeORM's QueryFailedError (the PostgreSQL error as its
 * `driverError`), so callers handle both alike.
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
