import path from 'node:path';

/** Where the database lives: started by us under DATA_DIR, or an external server. */
export type DatabaseConfig =
  { mode: 'embedded'; dir: string; port: number | undefined } | { mode: 'external'; url: string };

/**
 * Connections per process by default: twice pg's 10, so writes keep PostgreSQL busy while others wait
 * for their commit to reach disk. Mind max_connections (100) across every instance and worker.
 */
export const DATABASE_POOL_SIZE_DEFAULT = 20;
export const DATABASE_POOL_SIZE_MAX = 500;

/** DATABASE_URL if set; else an embedded PostgreSQL in `$DATA_DIR/pg`, on EMBEDDED_PG_PORT if set. */
export function databaseConfig(
  url: string | undefined,
  embeddedPort: number | undefined,
  dataDir: string,
): DatabaseConfig {
  return url === undefined
    ? { mode: 'embedded', dir: path.join(dataDir, 'pg'), port: embeddedPort }
    : { mode: 'external', url };
}
