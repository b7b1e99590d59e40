import { type DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { InProcessQueue } from './in-process.queue.js';
import { QUEUE_OPTIONS, type QueueModuleOptions, resolveQueueOptions } from './queue.options.js';
import { QueuePort } from './queue.port.js';

/**
 * Provides QueuePort everywhere, backed by BullMQ when `redisUrl` is set and by the in-process driver
 * otherwise; runs the `@QueueProcessor` providers of the app. Feature code only sees QueuePort.
 */
@Global()
@Module({})
export class QueueModule {
  static forRoot(options: QueueModuleOptions): DynamicModule | Promise<DynamicModule> {
    const resolved = resolveQueueOptions(options);
    const providers: Provider[] = [{ provide: QUEUE_OPTIONS, useValue: resolved }];
    const { redisUrl } = resolved;
    if (!redisUrl) {
      return {
        module: QueueModule,
        imports: [DiscoveryModule],
        providers: [...providers, InProcessQueue, { provide: QueuePort, useExisting: InProcessQueue }],
        exports: [QueuePort],
      };
    }
    // BullMQ is loaded with Redis only: the embedded default never pays for it (Nest awaits the import).
    return import('./bullmq.queue.js').then(
      ({ BULL_JOB_DEFAULTS, BullMqQueue, BullModule, bullConnection }) => ({
        module: QueueModule,
        imports: [
          DiscoveryModule,
          BullModule.forRootAsync({ useFactory: () => bullConnection(redisUrl) }),
          BullModule.registerQueue(
            ...resolved.queues.map((name) => ({ name, defaultJobOptions: BULL_JOB_DEFAULTS })),
          ),
        ],
        providers: [...providers, BullMqQueue, { provide: QueuePort, useExisting: BullMqQueue }],
        exports: [QueuePort],
      }),
    );
  }
}
