import type { DataSourceOptions } from 'typeorm';
import { User } from '../../modules/users/entities/user.entity.js';
import { MIGRATIONS } from './migrations/index.js';
import { TypeOrmLogger } from './typeorm-logger.js';

/** Every entity class; each module adds its own here as it gains tables. */
export const ENTITIES: Array<new (...args: never[]) => object> = [User];

/**
 * The one definition of how we talk to PostgreSQL, used by the app, the test setup and scripts.
 * `poolSize`: connections opened at most (DATABASE_POOL_SIZE for the app; pg's 10 unless given).
 */
export function dataSourceOptions(url: string, { poolSize }: { poolSize?: number } = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    ...(poolSize === undefined ? {} : { poolSize }),
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: true,
    synchronize: false,
    // Extensions come from migrations, never as a side effect of connecting.
    installExtensions: false,
    applicationName: 'termpaste',
    connectTimeoutMS: 5000,
    logger: new TypeOrmLogger(),
    maxQueryExecutionTime: 1000,
    extra: {
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
