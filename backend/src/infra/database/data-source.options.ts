import type { DataSourceOptions, EntitySchema } from 'typeorm';
import { TimedClient } from '../metrics/query-time.js';
import { MIGRATIONS } from './migrations/index.js';
import { TypeOrmLogger } from './typeorm-logger.js';

/** Entity classes, as the composition root lists them (src/entities.ts): infra knows no feature's. */
export type Entities = ReadonlyArray<(new (...args: never[]) => object) | EntitySchema>;

/**
 * The one definition of how we talk to PostgreSQL, used by the app, the test setup and scripts.
 * `poolSize`: connections opened at most (DATABASE_POOL_SIZE for the app; pg's 10 unless given).
 */
export function dataSourceOptions(
  url: string,
  { entities, poolSize }: { entities: Entities; poolSize?: number },
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    ...(poolSize === undefined ? {} : { poolSize }),
    entities: [...entities],
    migrations: MIGRATIONS,
    // Never on initialize: migrateUnderLock (migrate.ts) runs them, one process at a time.
    migrationsRun: false,
    synchronize: false,
    // Extensions come from migrations, never as a side effect of connecting.
    installExtensions: false,
    applicationName: 'termpaste',
    connectTimeoutMS: 5000,
    logger: new TypeOrmLogger(),
    maxQueryExecutionTime: 1000,
    extra: {
      // Each query's time goes to the metrics (termpaste_db_query_duration_seconds).
      Client: TimedClient,
      // Every connection of the pool keeps a listener for its errors: a connection the server drops
      // (PostgreSQL killed, restarted) can emit one after the pool has let go of it, which without a
      // listener would be an unhandled 'error' event that ends the process. The error itself reaches
      // the query that was running, or the pool's own handler (logged) for an idle connection.
      onConnect: (client: { on(event: 'error', listener: () => void): unknown }) => {
        client.on('error', () => undefined);
      },
    },
  };
}
