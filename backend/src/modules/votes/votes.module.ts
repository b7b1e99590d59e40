import { Module, type OnModuleInit } from '@nestjs/common';
import { RanksModule } from '../ranks/ranks.module.js';
import { PasteScoresModule } from '../pastes/paste-scores.module.js';
import { ViewerVotesPort } from '../pastes/viewer-votes.js';
import { ViewerVotesModule } from '../pastes/viewer-votes.module.js';
import { UsersModule } from '../users/users.module.js';
import { VotesController } from './votes.controller.js';
import { VotesService } from './votes.service.js';

/**
 * Votes on pastes and replies. It registers a member's own votes for the paste's page with the forum
 * (ViewerVotesPort); the admin module imports it to take a deleted member's votes back.
 */
@Module({
  imports: [UsersModule, RanksModule, PasteScoresModule, ViewerVotesModule],
  controllers: [VotesController],
  providers: [VotesService],
  exports: [VotesService],
})
export class VotesModule implements OnModuleInit {
  constructor(
    private readonly viewerVotes: ViewerVotesPort,
    private readonly votes: VotesService,
  ) {}

  onModuleInit(): void {
    this.viewerVotes.register(this.votes);
  }
}
