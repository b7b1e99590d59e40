import { Module } from '@nestjs/common';
import { ScreeningModule } from '../screening/screening.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { UsersModule } from '../users/users.module.js';
import { MessagesController } from './messages.controller.js';
import { MessagesService } from './messages.service.js';
import { MessageNoticesModule } from './message-notices.module.js';

/**
 * Private messages between members (and, for the support module, to the staff); a new message notifies
 * its recipient through NotificationsModule. A member who blocked the sender is not reached (ScreeningModule).
 */
@Module({
  imports: [UsersModule, NotificationsModule, MessageNoticesModule, ScreeningModule],
  controllers: [MessagesController],
  providers: [MessagesService],
  exports: [MessagesService],
})
export class MessagesModule {}
