import { Body, Controller, Get, Post, UseGuards } from '@nestjs/common';
import { API, type ChatMessage, chatMessagePostSchema, chatPostSchema } from '@termpaste/contracts';
import type { z } from 'zod';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { SessionGuard } from '../auth/guards/session.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { UserRateLimited } from '../auth/rate-limit.guard.js';
import type { User } from '../users/entities/user.entity.js';
import { ChatService } from './chat.service.js';
import { PrivateRead } from '../auth/tokens/token-scope.decorator.js';

/** Sending to the chat: a member not banned (401 / 403), then the per-member chat rate limit. */
const ChatWrite = () => UserRateLimited('chat');

/**
 * The global chat's two variants over one store: the popover's `/api/chat` (`message`) and the page's
 * `/api/chat/messages` (`content`).
 */
@Controller()
export class ChatController {
  constructor(private readonly chat: ChatService) {}

  /** The latest messages, newest first. */
  @Get([API.chat, API.chatMessages])
  @PrivateRead()
  @UseGuards(SessionGuard)
  history(): Promise<ChatMessage[]> {
    return this.chat.history();
  }

  @Post(API.chat)
  @ChatWrite()
  postFromPopover(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(chatPostSchema)) body: z.output<typeof chatPostSchema>,
  ): Promise<ChatMessage> {
    return this.chat.post(user, body.message);
  }

  @Post(API.chatMessages)
  @ChatWrite()
  postFromChatPage(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(chatMessagePostSchema)) body: z.output<typeof chatMessagePostSchema>,
  ): Promise<ChatMessage> {
    return this.chat.post(user, body.content);
  }
}
