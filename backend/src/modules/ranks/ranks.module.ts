import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { PremiumRanksController } from './premium-ranks.controller.js';
import { PremiumRanksService } from './premium-ranks.service.js';
import { ReputationService } from './reputation.service.js';

/**
 * Ranks: the reputation ledger and daily caps, and the premium grade a member shows. Modules whose writes
 * earn points call ReputationService in their own transaction.
 */
@Module({
  imports: [UsersModule],
  controllers: [PremiumRanksController],
  providers: [ReputationService, PremiumRanksService],
  exports: [ReputationService],
})
export class RanksModule {}
