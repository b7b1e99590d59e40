import { type DynamicModule, Global, Module } from '@nestjs/common';
import { InProcessPresence } from './in-process.presence.js';
import { PresencePort } from './presence.port.js';

/**
 * Provides PresencePort everywhere: Redis when `redisUrl` is set (counts over every instance, entries
 * that expire unless renewed), in-process otherwise. Feature code only sees PresencePort.
 */
@Global()
@Module({})
export class PresenceModule {
  static forRoot(options: { redisUrl: string | undefined }): DynamicModule | Promise<DynamicModule> {
    const { redisUrl } = options;
    if (redisUrl) {
      // ioredis is loaded with Redis only (Nest awaits the import).
      return import('./redis.presence.js').then(({ RedisPresence }) => ({
        module: PresenceModule,
        providers: [{ provide: PresencePort, useFactory: () => new RedisPresence(redisUrl) }],
        exports: [PresencePort],
      }));
    }
    return {
      module: PresenceModule,
      providers: [InProcessPresence, { provide: PresencePort, useExisting: InProcessPresence }],
      exports: [PresencePort],
    };
  }
}
