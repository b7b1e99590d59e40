import { Body, Controller, Put, UseGuards } from '@nestjs/common';
import {
  API,
  type CurrentUser as CurrentUserBody,
  type SetAvatarBody,
  setAvatarSchema,
  updateProfileSchema,
} from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { WriterGuard } from '../auth/guards/writer.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { WriteRateLimited } from '../auth/write-limits.js';
import type { User } from '../users/entities/user.entity.js';
import { type ProfileFields, ProfileSettingsService } from './profile-settings.service.js';
import { toCurrentUser } from '../users/user-rows.js';

/**
 * The member's own settings: profile and avatar. Signed in (401), not banned (403); answers the current user.
 */
@Controller()
@UseGuards(WriterGuard)
export class ProfileSettingsController {
  constructor(private readonly profileSettings: ProfileSettingsService) {}

  /** Limited per member and per address: each save drops the cached pages that show the member. */
  @Put(API.userProfile)
  @WriteRateLimited('profile')
  async update(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(updateProfileSchema)) body: ProfileFields,
  ): Promise<CurrentUserBody> {
    return toCurrentUser(await this.profileSettings.update(user.id, body));
  }

  /** `{ avatarURL }`: the objectURL of an upload, or the current avatar's URL. */
  @Put(API.userAvatar)
  async setAvatar(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(setAvatarSchema)) body: SetAvatarBody,
  ): Promise<CurrentUserBody> {
    return toCurrentUser(await this.profileSettings.setAvatar(user.id, body.avatarURL));
  }
}
