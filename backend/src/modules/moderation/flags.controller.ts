import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { API, type FlagCreate, flagCreateSchema, type MyFlag, type MyFlags } from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { SessionGuard } from '../auth/guards/session.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { PrivateRead } from '../auth/tokens/token-scope.decorator.js';
import type { User } from '../users/entities/user.entity.js';
import { FlagRateLimited } from './flag-limit.guard.js';
import { FlagsService } from './flags.service.js';

/**
 * Members' flags: `POST /api/flags` (a member who may write, within the hourly flag limit; 201 with the
 * flag, 409 when they flagged the item already) and `GET /api/flags/mine`.
 */
@Controller()
export class FlagsController {
  constructor(private readonly flags: FlagsService) {}

  @Post(API.flags)
  @HttpCode(201)
  @FlagRateLimited()
  create(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(flagCreateSchema)) body: FlagCreate,
  ): Promise<MyFlag> {
    return this.flags.create(user, body);
  }

  /** The member's flags, newest first (the last 500), with what staff decided. */
  @Get(API.flagsMine)
  @PrivateRead()
  @UseGuards(SessionGuard)
  mine(@CurrentUser() user: User): Promise<MyFlags> {
    return this.flags.mine(user.id);
  }
}
