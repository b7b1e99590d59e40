import { Module } from '@nestjs/common';
import { AuditService } from './audit.service.js';

/**
 * The staff action log on its own, so that every module with admin actions (the forum's moderation, the
 * admin panel) records them without depending on the admin panel.
 */
@Module({ providers: [AuditService], exports: [AuditService] })
export class AuditModule {}
