import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { SessionsModule } from '../auth/sessions.module.js';
import { UserPostsModule } from '../pastes/user-posts.module.js';
import { UsersModule } from '../users/users.module.js';
import { VotesModule } from '../votes/votes.module.js';
import { AccountDeletionService } from './account-deletion.service.js';
import { AccountController } from './account.controller.js';
import { AccountService } from './account.service.js';
import { ExportsModule } from './exports.module.js';

/**
 * The member's own account: data exports (ExportsModule) and deletion (AccountDeletionService, used by admin
 * too).
 */
@Module({
  imports: [UsersModule, SessionsModule, VotesModule, UserPostsModule, AuditModule, ExportsModule],
  controllers: [AccountController],
  providers: [AccountService, AccountDeletionService],
  exports: [AccountDeletionService],
})
export class AccountModule {}
