import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  type AccessToken,
  API,
  type CreatedAccessToken,
  createTokenSchema,
  TOKEN_MESSAGES,
  type TokenScope,
} from '@termpaste/contracts';
import { CurrentUser } from '../guards/current-user.decorator.js';
import { parseId } from '../../../common/parse-id.js';
import { SessionGuard } from '../guards/session.guard.js';
import { ZodValidationPipe } from '../../../common/zod-validation.pipe.js';
import type { User } from '../../users/entities/user.entity.js';
import { AccessTokensService } from './access-tokens.service.js';
import { NoTokens } from './token-scope.decorator.js';

/**
 * The member's personal access tokens: session only (a token cannot manage tokens: 403), signed in and not
 * banned.
 */
@Controller()
@NoTokens()
@UseGuards(SessionGuard)
export class AccessTokensController {
  constructor(private readonly tokens: AccessTokensService) {}

  @Get(API.userTokens)
  list(@CurrentUser() user: User): Promise<AccessToken[]> {
    return this.tokens.list(user.id);
  }

  /**
   * 201 with the token, once, in `token`; 403 for an unverified e-mail address; 409 beyond
   * TOKENS_PER_USER_MAX live ones.
   */
  @Post(API.userTokens)
  create(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(createTokenSchema))
    body: { name: string; scopes: TokenScope[]; expiresInDays: number | null },
  ): Promise<CreatedAccessToken> {
    return this.tokens.create(user, body);
  }

  /** 204, the token now listed as revoked `by you`; another member's token, or none: 404 `Token not found`. */
  @Delete(API.userToken(':id'))
  @HttpCode(204)
  async revoke(@CurrentUser() user: User, @Param('id') id: string): Promise<void> {
    await this.tokens.revoke(user.id, parseId(id, TOKEN_MESSAGES.notFound));
  }
}
