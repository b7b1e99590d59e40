import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { ReputationController } from './reputation.controller.js';
import { ReputationService } from './reputation.service.js';

/**
 * Ranks: reputation, the ladder members climb. The ledger (`reputation_ledger`) and the daily caps (`reputation_daily`). The modules whose
 * writes earn points (forum, chat) import this one and call ReputationService in their transaction.
 */
@Module({
  imports: [UsersModule],
  controllers: [ReputationController],
  providers: [ReputationService],
  exports: [ReputationService],
})
export class RanksModule {}
