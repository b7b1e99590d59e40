import { Module } from '@nestjs/common';
import { RanksModule } from '../ranks/ranks.module.js';
import { UsersModule } from '../users/users.module.js';
import { ChatController } from './chat.controller.js';
import { ChatService } from './chat.service.js';

/** The global chat's API; its lines reach the sockets through the events port and the live module. */
@Module({
  imports: [UsersModule, RanksModule],
  controllers: [ChatController],
  providers: [ChatService],
  exports: [ChatService],
})
export class ChatModule {}
