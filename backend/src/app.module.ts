import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from './config/config.js';
import { ConfigModule } from './config/config.module.js';
import { dataSourceOptions } from './infra/database/data-source.options.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { HealthModule } from './modules/health/health.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  /** The database to use: DATABASE_URL, or the embedded server's once it runs. */
  databaseUrl: string;
  /** Extra modules, e.g. test-only controllers. */
  imports?: ModuleMetadata['imports'];
}

/** Errors worth waiting out (the database is still starting); a failing migration is not one. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  '57P03',
]);

function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNREACHABLE_CODES.has(code);
}

@Module({})
export class AppModule {
  static register({ config, databaseUrl, imports = [] }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot({
          ...dataSourceOptions(databaseUrl),
          retryAttempts: 5,
          retryDelay: 2000,
          toRetry: isUnreachable,
        }),
        HealthModule,
        AuthModule,
        ...imports,
      ],
    };
  }
}
