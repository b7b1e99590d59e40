import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module.js';
import { UsersModule } from '../users/users.module.js';
import { SupportController } from './support.controller.js';

/**
 * Support requests (SPEC §2 Support page): a member writes to the staff. A request is a private message
 * to each of them (MessagesService.sendToStaff): support keeps no table of its own.
 */
@Module({
  imports: [UsersModule, MessagesModule],
  controllers: [SupportController],
})
export class SupportModule {}
