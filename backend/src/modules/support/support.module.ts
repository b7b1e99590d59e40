import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module.js';
import { UsersModule } from '../users/users.module.js';
import { SupportController } from './support.controller.js';

/**
 * Support requests: a private message to each staff member (MessagesService.sendToStaff); no table of its
 * own.
 */
@Module({
  imports: [UsersModule, MessagesModule],
  controllers: [SupportController],
})
export class SupportModule {}
