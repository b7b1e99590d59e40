import { Module } from '@nestjs/common';
import { MessageNoticesModule } from '../messages/message-notices.js';
import { ScreeningModule } from '../screening/screening.module.js';
import { PostNoticesModule } from '../threads/post-notices.js';
import { UsersModule } from '../users/users.module.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsProcessor } from './notifications.processor.js';
import { NotificationsService } from './notifications.service.js';

/**
 * Notifications: the member's list and unread count, and the fan-out processor of the `notifications`
 * queue, which reads the posts it is about through their owners (PostNotices, MessageNotices). Modules whose posts notify (forum, messages) write its job to the outbox in the post's own
 * transaction (notifications.queue.ts) and wake the relay once it commits (OutboxService.committed).
 */
@Module({
  imports: [UsersModule, PostNoticesModule, MessageNoticesModule, ScreeningModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, NotificationsProcessor],
  exports: [NotificationsService],
})
export class NotificationsModule {}
