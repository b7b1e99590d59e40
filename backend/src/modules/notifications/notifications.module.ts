import { Module } from '@nestjs/common';
import { ScreeningModule } from '../screening/screening.module.js';
import { UsersModule } from '../users/users.module.js';
import { NoticeRegistry } from './notice-registry.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsProcessor } from './notifications.processor.js';
import { NotificationsService } from './notifications.service.js';

/**
 * Notifications: the member's list and unread count, and the fan-out processor. The modules whose posts
 * notify register how to read them (NoticeRegistry), write the job to the outbox in the post's
 * transaction and wake the relay once it commits.
 */
@Module({
  imports: [UsersModule, ScreeningModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, NotificationsProcessor, NoticeRegistry],
  exports: [NotificationsService, NoticeRegistry],
})
export class NotificationsModule {}
