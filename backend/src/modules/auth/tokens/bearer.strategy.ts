import { Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { TOKEN_MESSAGES, TOKEN_PATTERN } from '@termpaste/contracts';
import { Strategy } from 'passport-http-bearer';
import type { User } from '../../users/entities/user.entity.js';
import { AccessTokensService, type RequestToken } from './access-tokens.service.js';

/** Whom a token request acts for, and with what token. */
export interface TokenPrincipal {
  user: User;
  token: RequestToken;
}

/**
 * passport's bearer strategy for personal access tokens (`Authorization: Bearer tp_…`, through
 * TokenGuard): a token of the wrong shape is refused without a lookup; else AccessTokensService finds it
 * by its hash. 401 with a TOKEN_MESSAGES text for an unknown or revoked token, an expired one, or a banned
 * member's.
 *
 * passport keeps its strategies in one registry per process, so the last app built in a process checks
 * tokens for all of them (as LocalStrategy signs in): a process runs one app.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly tokens: AccessTokensService) {
    super();
  }

  async validate(token: string): Promise<TokenPrincipal> {
    if (!TOKEN_PATTERN.test(token)) throw new UnauthorizedException(TOKEN_MESSAGES.invalid);
    const check = await this.tokens.authenticate(token);
    switch (check.status) {
      case 'ok':
        return { user: check.user, token: check.token };
      case 'expired':
        throw new UnauthorizedException(TOKEN_MESSAGES.expired);
      case 'banned':
        throw new UnauthorizedException(TOKEN_MESSAGES.banned);
      default:
        throw new UnauthorizedException(TOKEN_MESSAGES.invalid);
    }
  }
}
