import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  API,
  MODERATION_MESSAGES,
  type ReviewDecisionBody,
  reviewDecisionSchema,
  type ReviewItem,
  type ReviewPage,
  type ReviewQuery,
  reviewQuerySchema,
} from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { AdminGuard } from '../auth/guards/writer.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { ReviewService } from './review.service.js';

/**
 * The review queue (staff only: 401 signed out or banned, 403 for members and for personal access
 * tokens): the open items, their count, and the decisions.
 */
@Controller()
@UseGuards(AdminGuard)
export class ReviewController {
  constructor(private readonly review: ReviewService) {}

  /** Open items, newest first by their last flag or signal, keyset-paged; filters by kind, type, reason. */
  @Get(API.adminReview)
  page(@Query(new ZodValidationPipe(reviewQuerySchema)) query: ReviewQuery): Promise<ReviewPage> {
    return this.review.page(query);
  }

  /** A bare JSON number: the open items (the admin navigation's count). */
  @Get(API.adminReviewCount)
  @Header('Content-Type', 'application/json; charset=utf-8')
  count(): Promise<number> {
    return this.review.openCount();
  }

  @Post(API.adminReviewItem(':id'))
  @HttpCode(200)
  decide(
    @CurrentUser() admin: User,
    @Param('id') itemId: string,
    @Body(new ZodValidationPipe(reviewDecisionSchema)) body: ReviewDecisionBody,
  ): Promise<ReviewItem> {
    return this.review.decide(parseId(itemId, MODERATION_MESSAGES.itemNotFound), body, admin);
  }
}
