import { HttpModule } from '../../http/http.module.js';
import { Module } from '@nestjs/common';
import { RanksModule } from '../ranks/ranks.module.js';
import { PastesModule } from '../pastes/pastes.module.js';
import { UsersModule } from '../users/users.module.js';
import { ProfilesController } from './profiles.controller.js';
import { ProfilesService } from './profiles.service.js';
import { ProfileSettingsController } from './profile-settings.controller.js';
import { ProfileSettingsService } from './profile-settings.service.js';
import { ReputationHistoryController } from './reputation-history.controller.js';
import { ReputationHistoryService } from './reputation-history.service.js';

/**
 * A user as others see them (the directory, public profiles with their newest pastes, their reputation
 * history) and as they edit themselves (profile fields, avatar, through the global StoragePort).
 */
@Module({
  imports: [UsersModule, HttpModule, PastesModule, RanksModule],
  controllers: [ProfileSettingsController, ProfilesController, ReputationHistoryController],
  providers: [ProfilesService, ProfileSettingsService, ReputationHistoryService],
})
export class ProfilesModule {}
