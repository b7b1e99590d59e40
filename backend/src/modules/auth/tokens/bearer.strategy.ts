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
 * passport's bearer strategy: a malformed token is refused without a lookup, else found by its hash; 401
 * for unknown, revoked, expired or banned. One strategy registry per process: a process runs one app.
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
