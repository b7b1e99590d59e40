import { Module } from '@nestjs/common';
import { ForumModule } from '../threads/forum.module.js';
import { MembersController } from './members.controller.js';
import { MembersService } from './members.service.js';
import { UsersModule } from './users.module.js';

/** The members as others see them: the directory and public profiles (with their newest pastes). */
@Module({
  imports: [UsersModule, ForumModule],
  controllers: [MembersController],
  providers: [MembersService],
})
export class MembersModule {}
