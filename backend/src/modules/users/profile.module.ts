import { Module } from '@nestjs/common';
import { ProfileController } from './profile.controller.js';
import { ProfileService } from './profile.service.js';
import { UsersModule } from './users.module.js';

/** A member's own settings: profile fields, active rank, avatar (through the global StoragePort). */
@Module({
  imports: [UsersModule],
  controllers: [ProfileController],
  providers: [ProfileService],
})
export class ProfileModule {}
