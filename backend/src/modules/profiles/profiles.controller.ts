import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  API,
  POST_MESSAGES,
  type UserProfile,
  type UsersPage,
  type UsersQuery,
  usersQuerySchema,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import { parseId } from '../../common/parse-id.js';
import { OptionalSessionGuard, SessionGuard } from '../auth/guards/session.guard.js';
import { OptionalCurrentUser } from '../auth/guards/current-user.decorator.js';
import type { User } from '../users/entities/user.entity.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { PageCache, sendPage, toPage, wantsFresh } from '../../http/page-cache.js';
import { ProfilesService } from './profiles.service.js';
import { TokenScope } from '../auth/tokens/token-scope.decorator.js';

/** The members: the directory for signed-in members; a profile for anyone, from the page cache. */
@Controller()
export class ProfilesController {
  constructor(
    private readonly profiles: ProfilesService,
    private readonly pages: PageCache,
  ) {}

  /** The users directory, for signed-in members: `q` filters by a part of the username. */
  @Get(API.users)
  @TokenScope('read')
  @UseGuards(SessionGuard)
  users(@Query(new ZodValidationPipe(usersQuerySchema)) { q, cursor }: UsersQuery): Promise<UsersPage> {
    return this.profiles.directory(q, cursor);
  }

  /**
   * A profile as everyone sees it, from the page cache; a member reading their own on the site gets
   * their unlisted and private pastes too, read for them alone (never cached, nor by a shared cache).
   */
  @Get(API.user(':id'))
  @UseGuards(OptionalSessionGuard)
  async user(
    @Param('id') id: string,
    @OptionalCurrentUser() viewer: User | null,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const userId = parseId(id, POST_MESSAGES.userNotFound);
    // Signed in on the site: an access token reads profiles as everyone does.
    if (viewer?.id === userId && req.accessToken === undefined) {
      sendPage(req, res, toPage(await this.profiles.profile(userId, { own: true })), { personal: true });
      return;
    }
    const load = (): Promise<UserProfile> => this.profiles.profile(userId);
    sendPage(req, res, await this.pages.list(`profile:${userId}`, load, wantsFresh(req)));
  }
}
