import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { UsersModule } from '../users/users.module.js';
import { SuspensionLift } from './suspension-lift.js';

/** The lifting of ended suspensions, for the API (ModerationModule) and the worker alike. */
@Module({
  imports: [UsersModule, AuditModule],
  providers: [SuspensionLift],
  exports: [SuspensionLift],
})
export class SuspensionLiftModule {}
