import { Body, Controller, Get, HttpCode, Post, Put, Query, UseGuards } from '@nestjs/common';
import {
  API,
  type NotificationPreferences,
  type UnsubscribeResult,
  type UnsubscribeQuery,
  unsubscribeQuerySchema,
  type UpdateNotificationPreferencesBody,
  updateNotificationPreferencesSchema,
} from '@termpaste/contracts';
import { SignedRequest } from '../../common/signed-request.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { SessionGuard } from '../auth/guards/session.guard.js';
import { PrivateRead } from '../auth/tokens/token-scope.decorator.js';
import type { User } from '../users/entities/user.entity.js';
import { MailSettings } from './mail-settings.service.js';

/** The member's e-mail preferences, and the mails' unsubscribe links. */
@Controller()
export class MailingsController {
  constructor(private readonly settings: MailSettings) {}

  @Get(API.userNotificationPreferences)
  @UseGuards(SessionGuard)
  @PrivateRead()
  preferences(@CurrentUser() user: User): Promise<NotificationPreferences> {
    return this.settings.preferences(user.id);
  }

  @Put(API.userNotificationPreferences)
  @UseGuards(SessionGuard)
  update(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(updateNotificationPreferencesSchema)) body: UpdateNotificationPreferencesBody,
  ): Promise<NotificationPreferences> {
    return this.settings.update(user.id, body);
  }

  /** No sign-in: the link may be opened anywhere; it only says what it would do. */
  @Get(API.unsubscribe)
  describe(
    @Query(new ZodValidationPipe(unsubscribeQuerySchema)) { token }: UnsubscribeQuery,
  ): Promise<UnsubscribeResult> {
    return this.settings.describe(token);
  }

  /**
   * No sign-in, and no Origin check: a mail client's one-click POST (RFC 8058, body
   * `List-Unsubscribe=One-Click`) comes from no page of ours. The signed token is the whole authorization,
   * and it can only turn mail off.
   */
  @Post(API.unsubscribe)
  @HttpCode(200)
  @SignedRequest()
  unsubscribe(
    @Query(new ZodValidationPipe(unsubscribeQuerySchema)) { token }: UnsubscribeQuery,
  ): Promise<UnsubscribeResult> {
    return this.settings.unsubscribe(token);
  }
}
