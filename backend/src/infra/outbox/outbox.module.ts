import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DEFAULT_OUTBOX_OPTIONS, OUTBOX_OPTIONS, type OutboxOptions } from './outbox.options.js';
import { OutboxRelay } from './outbox.relay.js';
import { OutboxService } from './outbox.service.js';

/**
 * OutboxService everywhere, and the relay that moves the outbox's rows to the queue (needs the database
 * and QueueModule). The API and the worker both import it: any live process sends the rows another left.
 */
@Global()
@Module({})
export class OutboxModule {
  static forRoot(options: Partial<OutboxOptions> = {}): DynamicModule {
    return {
      module: OutboxModule,
      providers: [
        { provide: OUTBOX_OPTIONS, useValue: { ...DEFAULT_OUTBOX_OPTIONS, ...options } },
        OutboxRelay,
        OutboxService,
      ],
      exports: [OutboxService, OutboxRelay],
    };
  }
}
