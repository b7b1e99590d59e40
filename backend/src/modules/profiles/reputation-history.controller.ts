import { Controller, ForbiddenException, Get, Header, Param, Query, Req, UseGuards } from '@nestjs/common';
import {
  API,
  canReadReputationLedger,
  type CursorQuery,
  cursorQuerySchema,
  POST_MESSAGES,
  REPUTATION_MESSAGES,
  type ReputationLedgerPage,
} from '@termpaste/contracts';
import type { Request } from 'express';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { SessionGuard } from '../auth/guards/session.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { PrivateRead } from '../auth/tokens/token-scope.decorator.js';
import { ReputationHistoryService } from './reputation-history.service.js';

/**
 * A member's reputation ledger. Private to the member (and admins, who moderate reputation farming): each
 * row says when they posted, chatted or were voted on, and a vote's time next to a member's activity
 * would tell who cast it; the total stays public on the profile.
 */
@Controller()
export class ReputationHistoryController {
  constructor(private readonly history: ReputationHistoryService) {}

  @Get(API.userReputation(':id'))
  @PrivateRead()
  @UseGuards(SessionGuard)
  @Header('Cache-Control', 'private, no-cache')
  ledger(
    @Req() req: Request,
    @CurrentUser() viewer: User,
    @Param('id') id: string,
    @Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery,
  ): Promise<ReputationLedgerPage> {
    const userId = parseId(id, POST_MESSAGES.userNotFound);
    // An access token never carries an admin's powers: with one, only the member's own ledger.
    const as = req.accessToken === undefined ? viewer : { id: viewer.id, isAdmin: false };
    if (!canReadReputationLedger(as, userId)) throw new ForbiddenException(REPUTATION_MESSAGES.ledgerPrivate);
    return this.history.ledger(userId, cursor, viewer.id);
  }
}
