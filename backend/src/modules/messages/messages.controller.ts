import { Body, Controller, Get, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import {
  API,
  type CursorQuery,
  cursorQuerySchema,
  type MessagesPage,
  MESSAGING_MESSAGES,
  type PrivateMessage,
  type SendMessageBody,
  sendMessageSchema,
} from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { SessionGuard } from '../auth/guards/session.guard.js';
import { UserRateLimited } from '../auth/rate-limit.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { AllowSecrets, refuseSecrets } from '../../common/secrets.js';
import type { User } from '../users/entities/user.entity.js';
import { MessagesService } from './messages.service.js';
import { PrivateRead } from '../auth/tokens/token-scope.decorator.js';

/**
 * Private messages: reading needs a signed-in member (401), sending one not banned (403).
 * Someone else's message, or an id that names nothing, is the same 404.
 */
@Controller()
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  /** The inbox, newest first. */
  @Get(API.messages)
  @PrivateRead()
  @UseGuards(SessionGuard)
  inbox(
    @CurrentUser() user: User,
    @Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery,
  ): Promise<MessagesPage> {
    return this.messages.list(user.id, 'inbox', cursor);
  }

  @Get(API.messagesSent)
  @PrivateRead()
  @UseGuards(SessionGuard)
  sent(
    @CurrentUser() user: User,
    @Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery,
  ): Promise<MessagesPage> {
    return this.messages.list(user.id, 'sent', cursor);
  }

  @Post(API.messages)
  @UserRateLimited('message')
  async send(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(sendMessageSchema)) body: SendMessageBody,
    @AllowSecrets() allowSecrets: boolean,
  ): Promise<PrivateMessage> {
    await refuseSecrets(body.content, allowSecrets);
    return this.messages.send(user, body);
  }

  @Patch(API.messageRead(':id'))
  @UseGuards(SessionGuard)
  markRead(@CurrentUser() user: User, @Param('id') id: string): Promise<PrivateMessage> {
    return this.messages.markRead(user.id, parseId(id, MESSAGING_MESSAGES.messageNotFound));
  }
}
