import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { GradesController } from './grades.controller.js';
import { GradesService } from './grades.service.js';
import { ReputationService } from './reputation.service.js';

/**
 * Ranks: reputation, the ladder members climb: the ledger (`reputation_ledger`) and the daily caps
 * (`reputation_daily`); and the premium grade a member shows (select-rank). The modules whose writes earn
 * points (forum, chat) import this one and call ReputationService in their transaction.
 */
@Module({
  imports: [UsersModule],
  controllers: [GradesController],
  providers: [ReputationService, GradesService],
  exports: [ReputationService],
})
export class RanksModule {}
