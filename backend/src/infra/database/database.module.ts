import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions, type Entities } from './data-source.options.js';

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

/**
 * The database for the API and the worker alike: the data source (migrations run by whichever process
 * starts first), retried while the server is still unreachable.
 */
export function databaseModule(databaseUrl: string, entities: Entities, poolSize?: number): DynamicModule {
  return TypeOrmModule.forRoot({
    ...dataSourceOptions(databaseUrl, { entities, poolSize }),
    retryAttempts: 5,
    retryDelay: 2000,
    toRetry: isUnreachable,
  });
}
