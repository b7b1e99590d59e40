import { type DynamicModule, Global, Module } from '@nestjs/common';
import { EventsPort } from './events.port.js';
import { InProcessEvents } from './in-process.events.js';
import { RedisEvents } from './redis.events.js';

/**
 * Provides EventsPort everywhere: Redis pub/sub when `redisUrl` is set (so every instance sees every
 * event), an in-process bus otherwise. Feature code only sees EventsPort.
 */
@Global()
@Module({})
export class EventsModule {
  static forRoot(options: { redisUrl: string | undefined }): DynamicModule {
    const { redisUrl } = options;
    if (redisUrl) {
      return {
        module: EventsModule,
        providers: [{ provide: EventsPort, useFactory: () => new RedisEvents(redisUrl) }],
        exports: [EventsPort],
      };
    }
    return {
      module: EventsModule,
      providers: [InProcessEvents, { provide: EventsPort, useExisting: InProcessEvents }],
      exports: [EventsPort],
    };
  }
}
