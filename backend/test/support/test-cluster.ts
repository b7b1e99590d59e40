import { rm } from 'node:fs/promises';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/entities.js';
import { dataSourceOptions } from '../../src/infra/database/data-source.options.js';
import { migrateUnderLock } from '../../src/infra/database/migrate.js';
import { TEMPLATE_DATABASE, TEST_PG_URL_VARIABLE } from './postgres.js';
import { makeTempDir, startThrowawayPostgres } from './throwaway-postgres.js';

export interface TestCluster {
  stop(): Promise<void>;
}

/**
 * Starts the run's PostgreSQL in a temporary folder and migrates the template database once; each test
 * file then copies the template (support/postgres.ts). Workers start after this and inherit the URL.
 */
export async function startTestCluster(): Promise<TestCluster> {
  const tempDir = await makeTempDir('termpaste-test-pg-');
  const server = await startThrowawayPostgres(path.join(tempDir, 'pg'));
  const stop = async (): Promise<void> => {
    await server.stop();
    await rm(tempDir, { recursive: true, force: true });
  };
  try {
    await server.createDatabaseIfMissing(TEMPLATE_DATABASE);
    const dataSource = new DataSource(
      dataSourceOptions(server.url(TEMPLATE_DATABASE), { entities: ENTITIES }),
    );
    await dataSource.initialize();
    await migrateUnderLock(dataSource);
    await dataSource.destroy();
  } catch (error) {
    await stop();
    throw error;
  }
  process.env[TEST_PG_URL_VARIABLE] = server.url();
  return { stop };
}
