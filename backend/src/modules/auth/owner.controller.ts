import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  API,
  type CurrentUser as CurrentUserBody,
  type OwnerClaimBody,
  ownerClaimSchema,
} from '@termpaste/contracts';
import { CurrentUser } from './guards/current-user.decorator.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { SignedInRateLimited } from './rate-limit.guard.js';
import type { User } from '../users/entities/user.entity.js';
import { toCurrentUser } from '../users/user-rows.js';
import { UsersService } from '../users/users.service.js';
import { OwnerService } from './owner.service.js';

/** The setup code's form: a signed-in member (401), tries limited per member and per address (429). */
@Controller()
export class OwnerController {
  constructor(
    private readonly owners: OwnerService,
    private readonly users: UsersService,
  ) {}

  /** Answers with the member as they are now: owner and admin. */
  @Post(API.ownerClaim)
  @HttpCode(200)
  @SignedInRateLimited('owner-claim')
  async claim(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(ownerClaimSchema)) body: OwnerClaimBody,
  ): Promise<CurrentUserBody> {
    await this.owners.claim(user.id, body.code);
    return toCurrentUser((await this.users.findById(user.id))!);
  }
}
