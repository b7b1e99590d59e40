import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { MemberPostsModule } from '../threads/member-posts.module.js';
import { UsersModule } from '../users/users.module.js';
import { VotesModule } from '../votes/votes.module.js';
import { AccountDeletionService } from './account-deletion.service.js';
import { AccountController } from './account.controller.js';
import { AccountService } from './account.service.js';
import { ExportsModule } from './exports.module.js';

/**
 * The member's own account: exporting their data (ExportsModule: the requests, the build job, the
 * sweep) and deleting the account, by themself or by an admin (AccountDeletionService, which the admin
 * module uses too).
 */
@Module({
  imports: [UsersModule, VotesModule, MemberPostsModule, AuditModule, ExportsModule],
  controllers: [AccountController],
  providers: [AccountService, AccountDeletionService],
  exports: [AccountDeletionService],
})
export class AccountModule {}
