import { HttpModule } from '../../http/http.module.js';
import { Module } from '@nestjs/common';
import { RanksModule } from '../ranks/ranks.module.js';
import { PastesModule } from '../pastes/pastes.module.js';
import { UsersModule } from '../users/users.module.js';
import { MembersController } from './members.controller.js';
import { MembersService } from './members.service.js';
import { ProfileController } from './profile.controller.js';
import { ProfileService } from './profile.service.js';
import { ReputationHistoryController } from './reputation-history.controller.js';
import { ReputationHistoryService } from './reputation-history.service.js';

/**
 * A user as others see them (the directory, public profiles with their newest pastes, their reputation
 * history) and as they edit themselves (profile fields, avatar, through the global StoragePort).
 */
@Module({
  imports: [UsersModule, HttpModule, PastesModule, RanksModule],
  controllers: [ProfileController, MembersController, ReputationHistoryController],
  providers: [MembersService, ProfileService, ReputationHistoryService],
})
export class ProfilesModule {}
