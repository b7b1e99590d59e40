import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import {
  API,
  type CurrentUser as CurrentUserBody,
  type SelectRankBody,
  selectRankSchema,
} from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { WriterGuard } from '../auth/guards/writer.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { toCurrentUser } from '../users/user-rows.js';
import { PremiumRanksService } from './premium-ranks.service.js';

/**
 * The member picks their active premium rank; signed in (401) and not banned (403); answers the current
 * user.
 */
@Controller()
@UseGuards(WriterGuard)
export class PremiumRanksController {
  constructor(private readonly premiumRanks: PremiumRanksService) {}

  @Post(API.userSelectRank)
  @HttpCode(200)
  async selectRank(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(selectRankSchema)) body: SelectRankBody,
  ): Promise<CurrentUserBody> {
    return toCurrentUser(await this.premiumRanks.select(user.id, body.rankName));
  }
}
