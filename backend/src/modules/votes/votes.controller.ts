import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { API, type VoteBody, type VoteResult, voteSchema } from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { WriteRateLimited } from '../auth/write-limits.js';
import type { User } from '../users/entities/user.entity.js';
import { VotesService } from './votes.service.js';

/** Voting (`POST /api/votes`): a member who may write (else 401 or 403), within the vote limits. */
@Controller()
export class VotesController {
  constructor(private readonly votes: VotesService) {}

  @Post(API.votes)
  @HttpCode(200)
  @WriteRateLimited('vote')
  vote(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(voteSchema)) body: VoteBody,
  ): Promise<VoteResult> {
    return this.votes.vote(user, body);
  }
}
