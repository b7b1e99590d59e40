import { Module } from '@nestjs/common';
import { SessionsModule } from '../auth/sessions.module.js';
import { UsersModule } from '../users/users.module.js';
import { AdminController } from './admin.controller.js';
import { AdminService } from './admin.service.js';
import { AuditModule } from '../audit/audit.module.js';
import { AccountModule } from '../account/account.module.js';

/**
 * The admin panel's backend: members' accounts and the staff action log; avatars removed through the storage
 * port.
 */
@Module({
  imports: [UsersModule, SessionsModule, AuditModule, AccountModule],
  controllers: [AdminController],
  providers: [AdminService],
  exports: [AdminService],
})
export class AdminModule {}
