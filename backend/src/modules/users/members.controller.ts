import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  API,
  FORUM_MESSAGES,
  type UserProfile,
  type UsersPage,
  type UsersQuery,
  usersQuerySchema,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import { parseId } from '../../common/parse-id.js';
import { SessionGuard } from '../../common/session.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { PageCache, sendPage, wantsFresh } from '../threads/page-cache.js';
import { MembersService } from './members.service.js';
import { TokenScope } from '../tokens/token-scope.decorator.js';

/**
 * The members (SPEC §7): the directory, for signed-in members; a profile, open to anyone and served
 * from the page cache (a member's change of name, avatar, rank or pastes drops it).
 */
@Controller()
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly pages: PageCache,
  ) {}

  /** The users directory, for signed-in members: `q` filters by a part of the username. */
  @Get(API.users)
  @TokenScope('read')
  @UseGuards(SessionGuard)
  users(@Query(new ZodValidationPipe(usersQuerySchema)) { q, cursor }: UsersQuery): Promise<UsersPage> {
    return this.members.directory(q, cursor);
  }

  @Get(API.user(':id'))
  async user(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const userId = parseId(id, FORUM_MESSAGES.userNotFound);
    const load = (): Promise<UserProfile> => this.members.profile(userId);
    sendPage(req, res, await this.pages.list(`profile:${userId}`, load, wantsFresh(req)));
  }
}
