import { type DynamicModule, Global, Module } from '@nestjs/common';
import { EventsPort } from './events.port.js';
import { InProcessEvents } from './in-process.events.js';

/**
 * Provides EventsPort everywhere: Redis pub/sub when `redisUrl` is set (so every instance sees every
 * event), an in-process bus otherwise. Feature code only sees EventsPort.
 */
@Global()
@Module({})
export class EventsModule {
  static forRoot(options: { redisUrl: string | undefined }): DynamicModule | Promise<DynamicModule> {
    const { redisUrl } = options;
    if (redisUrl) {
      // ioredis is loaded with Redis only (Nest awaits the import).
      return import('./redis.events.js').then(({ RedisEvents }) => ({
        module: EventsModule,
        providers: [{ provide: EventsPort, useFactory: () => new RedisEvents(redisUrl) }],
        exports: [EventsPort],
      }));
    }
    return {
      module: EventsModule,
      providers: [InProcessEvents, { provide: EventsPort, useExisting: InProcessEvents }],
      exports: [EventsPort],
    };
  }
}
