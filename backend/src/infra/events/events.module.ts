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
  static forRoot(options: { redisUrl: string | undefined }): DynamicModule {
    // TODO(redis adapter): RedisEvents when options.redisUrl is set.
    void options;
    return {
      module: EventsModule,
      providers: [InProcessEvents, { provide: EventsPort, useExisting: InProcessEvents }],
      exports: [EventsPort],
    };
  }
}
