import { ENTITIES } from './entities.js';
import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { OriginGuard } from './modules/auth/guards/origin.guard.js';
import type { AppConfig } from './config/config.js';
import { ConfigModule } from './config/config.module.js';
import { databaseModule } from './infra/database/database.module.js';
import { ReadDatabaseModule } from './infra/database/read-database.module.js';
import { EventsModule } from './infra/events/events.module.js';
import { PresenceModule } from './infra/presence/presence.module.js';
import { BackupModule } from './infra/backup/backup.module.js';
import { MailModule } from './infra/mail/mail.module.js';
import { MetricsModule } from './infra/metrics/metrics.module.js';
import { LINK_MAILS } from './mails.js';
import { OutboxModule } from './infra/outbox/outbox.module.js';
import { QueueModule } from './infra/queue/queue.module.js';
import { jobLock } from './infra/queue/queue.options.js';
import { QUEUE_NAMES } from './queues.js';
import { StorageModule } from './infra/storage/storage.module.js';
import { AccountModule } from './modules/account/account.module.js';
import { AdminModule } from './modules/admin/admin.module.js';
import { ModerationModule } from './modules/moderation/moderation.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { ChatModule } from './modules/chat/chat.module.js';
import { PastesModule } from './modules/pastes/pastes.module.js';
import { FeedsModule } from './modules/pastes/feeds.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { MessagesModule } from './modules/messages/messages.module.js';
import { NotificationsModule } from './modules/notifications/notifications.module.js';
import { LiveModule } from './modules/live/live.module.js';
import { MailingsModule } from './modules/mailings/mailings.module.js';
import { ProfilesModule } from './modules/profiles/profiles.module.js';
import { SupportModule } from './modules/support/support.module.js';
import { RanksModule } from './modules/ranks/ranks.module.js';
import { UploadsModule } from './modules/uploads/uploads.module.js';
import { VotesModule } from './modules/votes/votes.module.js';
import { WatchingModule } from './modules/watching/watching.module.js';
import { SigningModule } from './modules/signing/signing.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  /** The database to use: DATABASE_URL, or the embedded server's once it runs. */
  databaseUrl: string;
  /** Extra modules, e.g. test-only controllers. */
  imports?: ModuleMetadata['imports'];
}

@Module({})
export class AppModule {
  static register({ config, databaseUrl, imports = [] }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // First: a provider a test module exports globally (a recording MailService) wins over the app's.
        ...imports,
        ConfigModule.forRoot(config),
        MetricsModule,
        databaseModule(databaseUrl, {
          entities: ENTITIES,
          poolSize: config.databasePoolSize,
          migrateOnStart: config.migrateOnStart,
        }),
        // DATABASE_READ_URL: the reads that may lag a moment, on a healthy replica (else the primary).
        ReadDatabaseModule.forRoot(config.readReplicas, config.databasePoolSize),
        // PROCESS_JOBS=off: this instance only enqueues; workers (main.worker.ts) run the jobs.
        QueueModule.forRoot({
          queues: QUEUE_NAMES,
          redisUrl: config.redisUrl,
          runProcessors: config.processJobs,
          worker: jobLock(config),
        }),
        // Jobs that follow a write: written with it, relayed to the queue once it commits.
        OutboxModule.forRoot(),
        EventsModule.forRoot({ redisUrl: config.redisUrl }),
        // Who is online, who reads which paste: counted over every instance.
        PresenceModule.forRoot({ redisUrl: config.redisUrl }),
        MailModule.forRoot(LINK_MAILS),
        StorageModule.forRoot(config),
        HealthModule,
        AuthModule,
        PastesModule,
        FeedsModule,
        VotesModule,
        WatchingModule,
        SigningModule,
        ChatModule,
        LiveModule,
        NotificationsModule,
        MessagesModule,
        SupportModule,
        ProfilesModule,
        RanksModule,
        UploadsModule.forRoot(config),
        AccountModule,
        AdminModule,
        ModerationModule,
        MailingsModule,
        BackupModule,
      ],
      // CSRF defence on every route: state-changing requests only from our own site.
      providers: [{ provide: APP_GUARD, useClass: OriginGuard }],
    };
  }
}
