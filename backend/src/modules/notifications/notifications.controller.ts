import { Controller, Get, Header, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import {
  API,
  type CursorQuery,
  cursorQuerySchema,
  MESSAGING_MESSAGES,
  type NotificationsPage,
  type UnreadCountResult,
} from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { SessionGuard } from '../auth/guards/session.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { NotificationsService } from './notifications.service.js';
import { PrivateRead } from '../auth/tokens/token-scope.decorator.js';

/** The signed-in member's notifications; signed out (or banned) is a 401. */
@Controller()
@UseGuards(SessionGuard)
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get(API.notifications)
  @PrivateRead()
  list(
    @CurrentUser() user: User,
    @Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery,
  ): Promise<NotificationsPage> {
    return this.notifications.list(user.id, cursor);
  }

  /** A bare JSON number. */
  @Get(API.notificationsUnreadCount)
  @PrivateRead()
  @Header('Content-Type', 'application/json; charset=utf-8')
  unreadCount(@CurrentUser() user: User): Promise<number> {
    return this.notifications.unreadCount(user.id);
  }

  @Post(API.notificationsMarkAllRead)
  @HttpCode(200)
  markAllRead(@CurrentUser() user: User): Promise<UnreadCountResult> {
    return this.notifications.markAllRead(user.id);
  }

  @Patch(API.notificationRead(':id'))
  markRead(@CurrentUser() user: User, @Param('id') id: string): Promise<UnreadCountResult> {
    return this.notifications.markRead(user.id, parseId(id, MESSAGING_MESSAGES.notificationNotFound));
  }
}
