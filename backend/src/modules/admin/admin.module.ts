import { Module } from '@nestjs/common';
import { SessionsModule } from '../auth/sessions.module.js';
import { UsersModule } from '../users/users.module.js';
import { AdminController } from './admin.controller.js';
import { AdminService } from './admin.service.js';
import { AuditModule } from '../audit/audit.module.js';
import { AccountModule } from '../account/account.module.js';

/**
 * The admin panel's backend (SPEC §2, §6, §7): members' accounts and the staff action log. Stored avatars
 * are removed through the storage port when one is provided.
 */
@Module({
  imports: [UsersModule, SessionsModule, AuditModule, AccountModule],
  controllers: [AdminController],
  providers: [AdminService],
  exports: [AdminService],
})
export class AdminModule {}
