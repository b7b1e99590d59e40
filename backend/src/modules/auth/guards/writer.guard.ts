import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { POST_MESSAGES, silencedMessage, TOKEN_MESSAGES, VERIFY_MESSAGES } from '@termpaste/contracts';
import type { Request } from 'express';
import type { AppConfig } from '../../../config/config.js';
import { InjectConfig } from '../../../config/config.module.js';
import type { User } from '../../users/entities/user.entity.js';
import { UsersService } from '../../users/users.service.js';
import { loadSessionUser } from './session.guard.js';

/** Loads the signed-in user (401 when there is none); a banned user is let through for the caller to judge. */
async function loadUser(context: ExecutionContext, users: UsersService): Promise<User> {
  const user = await loadSessionUser(context, users);
  if (!user) throw new UnauthorizedException();
  return user;
}

/**
 * Routes where a member writes: signed in (401), not banned, verified unless REQUIRE_VERIFIED_EMAIL=false,
 * not silenced unless AllowSilenced (each else 403). Its module imports UsersModule.
 */
@Injectable()
export class WriterGuard implements CanActivate {
  constructor(
    private readonly users: UsersService,
    @InjectConfig() private readonly config: Pick<AppConfig, 'requireVerifiedEmail'>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const user = await loadUser(context, this.users);
    if (user.isBanned) throw new ForbiddenException(POST_MESSAGES.banned);
    if (!mayWrite(user, this.config)) throw new ForbiddenException(VERIFY_MESSAGES.unverified);
    if (user.silencedUntil !== null && !Reflect.getMetadata(ALLOW_SILENCED, context.getHandler())) {
      throw new ForbiddenException(silencedMessage(user.silencedUntil, user.silenceReason));
    }
    return true;
  }
}

const ALLOW_SILENCED = 'termpaste:allow-silenced';

/**
 * Marks the one write a silenced member may still make (a support request): WriterGuard refuses every
 * other with silencedMessage. The account's ended silence already reads as lifted (withEndedLifted).
 */
export function AllowSilenced(): MethodDecorator {
  return SetMetadata(ALLOW_SILENCED, true);
}

/** Whether the member's e-mail address allows writing: verified, or verification not required. */
export function mayWrite(
  user: Pick<User, 'emailVerifiedAt'>,
  config: Pick<AppConfig, 'requireVerifiedEmail'>,
): boolean {
  return !config.requireVerifiedEmail || user.emailVerifiedAt !== null;
}

/**
 * Admin routes: never with an access token (403, whatever the scopes); signed in and not banned (401); an
 * admin (403).
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly users: UsersService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.switchToHttp().getRequest<Request>().accessToken) {
      throw new ForbiddenException(TOKEN_MESSAGES.notForTokens);
    }
    const user = await loadUser(context, this.users);
    if (user.isBanned) throw new UnauthorizedException();
    if (!user.isAdmin) throw new ForbiddenException(POST_MESSAGES.adminRequired);
    return true;
  }
}
