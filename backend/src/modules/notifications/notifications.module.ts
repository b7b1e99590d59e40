import { Module } from '@nestjs/common';
import { ScreeningModule } from '../screening/screening.module.js';
import { UsersModule } from '../users/users.module.js';
import { NoticeRegistry } from './notice-registry.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsProcessor } from './notifications.processor.js';
import { NotificationsService } from './notifications.service.js';

/**
 * Notifications: the member's list and unread count, and the fan-out processor of the `notifications`
 * queue. The modules whose posts notify (threads, messages) register how to read them (NoticeRegistry),
 * write its job to the outbox in the post's own transaction (notifications.queue.ts) and wake the relay
 * once it commits (OutboxService.committed).
 */
@Module({
  imports: [UsersModule, ScreeningModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, NotificationsProcessor, NoticeRegistry],
  exports: [NotificationsService, NoticeRegistry],
})
export class NotificationsModule {}
