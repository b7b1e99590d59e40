import { Module } from '@nestjs/common';
import { RanksModule } from '../ranks/ranks.module.js';
import { PasteScoresModule } from '../threads/paste-scores.module.js';
import { UsersModule } from '../users/users.module.js';
import { VotesController } from './votes.controller.js';
import { VotesService } from './votes.service.js';

/**
 * Votes on pastes and replies. The forum module imports this one for a member's own votes on a paste's
 * page; the admin module, to take a deleted member's votes back.
 */
@Module({
  imports: [UsersModule, RanksModule, PasteScoresModule],
  controllers: [VotesController],
  providers: [VotesService],
  exports: [VotesService],
})
export class VotesModule {}
