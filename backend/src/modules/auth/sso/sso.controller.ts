import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Param,
  Post,
  Query,
  Redirect,
  Req,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import {
  API,
  type CurrentUser as CurrentUserBody,
  SSO_MESSAGES,
  type SsoRefusal,
  type SsoStartQuery,
  ssoStartQuerySchema,
  type SsoUsernameBody,
  ssoUsernameSchema,
} from '@termpaste/contracts';
import { ConflictException } from '@nestjs/common';
import type { Request } from 'express';
import { CurrentUser } from '../guards/current-user.decorator.js';
import { SessionGuard } from '../guards/session.guard.js';
import { ZodValidationPipe } from '../../../common/zod-validation.pipe.js';
import type { User } from '../../users/entities/user.entity.js';
import { toCurrentUser } from '../../users/user-rows.js';
import { UsersService } from '../../users/users.service.js';
import { RateLimited } from '../rate-limit.guard.js';
import { NoTokens } from '../tokens/token-scope.decorator.js';
import { SsoRateLimitFilter } from './sso-rate-limit.filter.js';
import { SsoService } from './sso.service.js';

/** Where the browser goes next: a redirect Nest answers from the handler's return. */
interface Destination {
  url: string;
}

/**
 * Signing in with a provider: top-level browser navigations that answer with a redirect, and
 * the first sign-in's username. Session only: a personal access token gets 403.
 */
@Controller()
@NoTokens()
export class SsoController {
  constructor(
    private readonly sso: SsoService,
    private readonly users: UsersService,
  ) {}

  /** To the provider's sign-in page (state, nonce and PKCE for OpenID Connect; state for GitHub). */
  @Get(API.ssoStart(':provider'))
  @Header('Cache-Control', 'no-store')
  @Redirect()
  async start(
    @Param('provider') provider: string,
    @Query(new ZodValidationPipe(ssoStartQuerySchema)) query: SsoStartQuery,
    @Req() req: Request,
  ): Promise<Destination> {
    return { url: await this.sso.start(req, provider, query) };
  }

  /**
   * The provider sends the browser back here. Counts as a sign-in attempt (RATE_LIMIT_LOGIN_* per
   * address, shared with POST /api/login): past the limit, to `?sso_error=rate_limited`.
   */
  @Get(API.ssoCallback(':provider'))
  @Header('Cache-Control', 'no-store')
  @Redirect()
  @UseFilters(SsoRateLimitFilter)
  @RateLimited('login')
  async callback(@Param('provider') provider: string, @Req() req: Request): Promise<Destination> {
    return { url: await this.sso.finish(req, provider) };
  }

  /** The words of this session's last refused provider sign-in (a ban's end and reason), or null. */
  @Get(API.ssoRefusal)
  @Header('Cache-Control', 'no-store')
  refusal(@Req() req: Request): SsoRefusal {
    return { message: req.session?.ssoRefusal ?? null };
  }

  /** Keeps or changes the username a provider sign-in proposed: once (409 afterwards). */
  @Post(API.ssoUsername)
  @HttpCode(200)
  @UseGuards(SessionGuard)
  async chooseUsername(
    @Body(new ZodValidationPipe(ssoUsernameSchema)) { username }: SsoUsernameBody,
    @CurrentUser() user: User,
  ): Promise<CurrentUserBody> {
    const chosen = await this.users.chooseUsername(user.id, username);
    if (chosen === 'already-chosen') throw new ConflictException(SSO_MESSAGES.usernameAlreadyChosen);
    return toCurrentUser(chosen);
  }
}
