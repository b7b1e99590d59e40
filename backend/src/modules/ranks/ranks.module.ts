import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { GradesController } from './grades.controller.js';
import { GradesService } from './grades.service.js';
import { ReputationService } from './reputation.service.js';

/**
 * Ranks: the reputation ledger and daily caps, and the premium grade a member shows. Modules whose writes
 * earn points call ReputationService in their own transaction.
 */
@Module({
  imports: [UsersModule],
  controllers: [GradesController],
  providers: [ReputationService, GradesService],
  exports: [ReputationService],
})
export class RanksModule {}
