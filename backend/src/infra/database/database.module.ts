import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { dataSourceOptions, type Entities } from './data-source.options.js';
import { prepareSchema } from './migrate.js';

/** Errors worth waiting out (the database is still starting); a failing migration is not one. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  '57P03',
]);

export function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNREACHABLE_CODES.has(code);
}

export interface DatabaseModuleOptions {
  entities: Entities;
  poolSize?: number;
  /** MIGRATE_ON_START: migrate under the lock (default), or refuse to start while the database is behind. */
  migrateOnStart?: boolean;
}

/**
 * The database for the API and the worker alike: the data source, retried while the server is still
 * unreachable, and its schema brought up to date (migrate.ts: under an advisory lock, so replicas
 * started together migrate once) or checked.
 */
export function databaseModule(
  databaseUrl: string,
  { entities, poolSize, migrateOnStart = true }: DatabaseModuleOptions,
): DynamicModule {
  return TypeOrmModule.forRootAsync({
    useFactory: () => ({
      ...dataSourceOptions(databaseUrl, { entities, poolSize }),
      retryAttempts: 5,
      retryDelay: 2000,
      toRetry: isUnreachable,
    }),
    dataSourceFactory: async (options) => {
      const dataSource = await new DataSource(options as DataSourceOptions).initialize();
      try {
        await prepareSchema(dataSource, migrateOnStart);
      } catch (error) {
        await dataSource.destroy().catch(() => undefined);
        throw error;
      }
      return dataSource;
    },
  });
}
