import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  ADMIN_MESSAGES,
  type AdminUser,
  API,
  type BanBody,
  banBodySchema,
  MODERATION_TEXTS,
  type SilenceBody,
  silenceBodySchema,
} from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { AdminGuard } from '../auth/guards/writer.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { SuspensionsService } from './suspensions.service.js';

const userId = (raw: string) => parseId(raw, ADMIN_MESSAGES.userNotFound);

/**
 * The admin panel's suspensions: ban (for ever with an empty payload, as the spec has it, or for
 * `days` with a `reason`), unban, silence, unsilence, and delete spammer. Admins only, by the
 * permission table (the owner-only rule for admin accounts).
 */
@Controller()
@UseGuards(AdminGuard)
export class SuspensionsController {
  constructor(private readonly suspensions: SuspensionsService) {}

  @Post(API.adminUserBan(':id'))
  @HttpCode(200)
  ban(
    @CurrentUser() actor: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(banBodySchema)) body: BanBody,
  ): Promise<AdminUser> {
    return this.suspensions.ban(actor, userId(id), body);
  }

  @Post(API.adminUserUnban(':id'))
  @HttpCode(200)
  unban(@CurrentUser() actor: User, @Param('id') id: string): Promise<AdminUser> {
    return this.suspensions.unban(actor, userId(id));
  }

  @Post(API.adminUserSilence(':id'))
  @HttpCode(200)
  silence(
    @CurrentUser() actor: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(silenceBodySchema)) body: SilenceBody,
  ): Promise<AdminUser> {
    return this.suspensions.silence(actor, userId(id), body);
  }

  @Post(API.adminUserUnsilence(':id'))
  @HttpCode(200)
  unsilence(@CurrentUser() actor: User, @Param('id') id: string): Promise<AdminUser> {
    return this.suspensions.unsilence(actor, userId(id));
  }

  /** Deletes the member with their pastes, replies and chat lines, and remembers their address. */
  @Post(API.adminUserSpammer(':id'))
  @HttpCode(200)
  async spammer(@CurrentUser() actor: User, @Param('id') id: string): Promise<{ message: string }> {
    await this.suspensions.deleteSpammer(actor, userId(id));
    return { message: MODERATION_TEXTS.spammerDeleted };
  }
}
