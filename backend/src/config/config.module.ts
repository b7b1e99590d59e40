import { type DynamicModule, Global, Inject, Module, type ValueProvider } from '@nestjs/common';
import type { AppConfig } from './config.js';

/** Injection token of the parsed AppConfig: `constructor(@InjectConfig() config: AppConfig)`. */
export const APP_CONFIG = Symbol('APP_CONFIG');

export const InjectConfig = (): ParameterDecorator => Inject(APP_CONFIG);

export function configProvider(config: AppConfig): ValueProvider<AppConfig> {
  return { provide: APP_CONFIG, useValue: config };
}

/** Makes the configuration (parsed once, before Nest starts) injectable everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    const provider = configProvider(config);
    return { module: ConfigModule, providers: [provider], exports: [provider] };
  }
}
