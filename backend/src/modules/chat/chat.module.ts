import { Module } from '@nestjs/common';
import { RanksModule } from '../ranks/ranks.module.js';
import { UsersModule } from '../users/users.module.js';
import { ChatController } from './chat.controller.js';
import { ChatGateway } from './chat.gateway.js';
import { ChatService } from './chat.service.js';

/**
 * The global chat: its API, and the live socket (`/ws/chat`) that carries every live event — the chat
 * to every member, notifications and private messages to their member only.
 */
@Module({
  imports: [UsersModule, RanksModule],
  controllers: [ChatController],
  providers: [ChatService, ChatGateway],
})
export class ChatModule {}
