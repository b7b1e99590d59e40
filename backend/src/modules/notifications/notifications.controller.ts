import { Controller, Get, Header, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { MESSAGING_MESSAGES, type NotificationsPage, type UnreadCountResult } from '@termpaste/contracts';
import { CurrentUser } from '../../common/current-user.decorator.js';
import { singleQueryValue } from '../../common/keyset-cursor.js';
import { parseId } from '../../common/parse-id.js';
import { SessionGuard } from '../../common/session.guard.js';
import type { User } from '../users/entities/user.entity.js';
import { NotificationsService } from './notifications.service.js';

/** The signed-in member's notifications (SPEC §7); signed out (or banned) is a 401. */
@Controller('api/notifications')
@UseGuards(SessionGuard)
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  list(@CurrentUser() user: User, @Query('cursor') cursor: unknown): Promise<NotificationsPage> {
    return this.notifications.list(user.id, singleQueryValue(cursor));
  }

  /** A bare JSON number (SPEC §3). */
  @Get('unread-count')
  @Header('Content-Type', 'application/json; charset=utf-8')
  unreadCount(@CurrentUser() user: User): Promise<number> {
    return this.notifications.unreadCount(user.id);
  }

  @Post('mark-all-read')
  @HttpCode(200)
  markAllRead(@CurrentUser() user: User): Promise<UnreadCountResult> {
    return this.notifications.markAllRead(user.id);
  }

  @Patch(':id/read')
  markRead(@CurrentUser() user: User, @Param('id') id: string): Promise<UnreadCountResult> {
    return this.notifications.markRead(user.id, parseId(id, MESSAGING_MESSAGES.notificationNotFound));
  }
}
