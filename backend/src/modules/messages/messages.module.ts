import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { UsersModule } from '../users/users.module.js';
import { MessagesController } from './messages.controller.js';
import { MessagesService } from './messages.service.js';
import { SupportController } from './support.controller.js';

/**
 * Private messages between members, and support requests to the staff; a new message notifies its
 * recipient through NotificationsModule.
 */
@Module({
  imports: [UsersModule, NotificationsModule],
  controllers: [MessagesController, SupportController],
  providers: [MessagesService],
})
export class MessagesModule {}
