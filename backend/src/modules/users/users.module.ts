import { Module } from '@nestjs/common';
import { SessionsModule } from '../auth/sessions.module.js';
import { MemberAdminService } from './member-admin.service.js';
import { UsersService } from './users.service.js';

/**
 * Accounts, and (handed on from auth's SessionsModule) their sessions. A module whose routes use
 * SessionGuard imports this one (the guard loads the signed-in user through UsersService).
 */
@Module({
  imports: [SessionsModule],
  providers: [UsersService, MemberAdminService],
  exports: [UsersService, MemberAdminService, SessionsModule],
})
export class UsersModule {}
