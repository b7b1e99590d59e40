import { type DynamicModule, Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config.js';
import { ConfigModule } from '../config/config.module.js';
import { dataSourceOptions } from '../infra/database/data-source.options.js';
import { EventsModule } from '../infra/events/events.module.js';
import { OutboxRelay } from '../infra/outbox/outbox.relay.js';
import { OutboxService } from '../infra/outbox/outbox.service.js';
import { QueueModule } from '../infra/queue/queue.module.js';
import { jobLock } from '../infra/queue/queue.options.js';
import { StorageModule } from '../infra/storage/storage.module.js';
import { ENTITIES } from '../entities.js';
import { AdminModule } from '../modules/admin/admin.module.js';
import { rateLimitThrottlers } from '../modules/auth/rate-limit.guard.js';
import { SuspensionLiftModule } from '../modules/moderation/suspension-lift.module.js';
import { SuspensionsService } from '../modules/moderation/suspensions.service.js';
import { QUEUE_NAMES } from '../queues.js';

/**
 * The outbox without its relay: what the CLI writes there (a ban's mail) is sent by the running API
 * instances and workers, whose relays poll it; a relay here would hand it to a queue nobody runs.
 */
@Global()
@Module({
  providers: [{ provide: OutboxRelay, useValue: { wake: () => undefined } }, OutboxService],
  exports: [OutboxService],
})
class CliOutboxModule {}

/**
 * The app's services the CLI's commands use, on the CLI's database: the queue only enqueues (Redis: a
 * ban's timed end reaches the workers; in-process, the sweep of ended suspensions lifts it), and live
 * events reach the API instances through Redis when there is one.
 */
@Module({})
export class CliModule {
  static register(config: AppConfig, dataSource: DataSource): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRootAsync({
          useFactory: () => dataSourceOptions('postgres://unused', { entities: ENTITIES }),
          dataSourceFactory: async () => dataSource,
        }),
        QueueModule.forRoot({
          queues: QUEUE_NAMES,
          redisUrl: config.redisUrl,
          runProcessors: false,
          worker: jobLock(config),
        }),
        CliOutboxModule,
        EventsModule.forRoot({ redisUrl: config.redisUrl }),
        StorageModule.forRoot(config),
        // The write limits' guards come along with the account modules; the CLI itself is never limited.
        ThrottlerModule.forRoot({ throttlers: rateLimitThrottlers(config.rateLimits) }),
        AdminModule,
        SuspensionLiftModule,
      ],
      providers: [SuspensionsService],
      exports: [SuspensionsService],
    };
  }
}
