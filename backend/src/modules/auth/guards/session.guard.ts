import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request } from 'express';
import './bearer.js';
import { signedInMember } from '../session-user.js';
import type { User } from '../../users/entities/user.entity.js';
import { UsersService } from '../../users/users.service.js';

declare module 'express-serve-static-core' {
  interface Request {
    /**
     * Set by the session guards: the signed-in user, loaded for this request; null (OptionalSessionGuard
     * only) for a visitor.
     */
    currentUser?: User | null;
  }
}

/**
 * Loads the request's signed-in user afresh (so a ban or a deleted account takes effect at once) and
 * records it as `req.currentUser`: null when there is no session or its account is gone. A request with
 * a personal access token acts as the token's member, whom TokenGuard loaded (the same way, afresh). Every session
 * guard loads the user through this, then judges it.
 */
export async function loadSessionUser(context: ExecutionContext, users: UsersService): Promise<User | null> {
  const req = context.switchToHttp().getRequest<Request>();
  // A personal access token's request: TokenGuard loaded its member just now, and there is no session.
  if (req.accessToken) return req.currentUser ?? null;
  req.currentUser = await signedInMember(req, users);
  return req.currentUser;
}

/**
 * Lets a request through only when it is signed in: loads the user for every request, so a ban or a
 * deleted account takes effect at once (a banned user counts as signed out). Otherwise 401
 * `Unauthorized`. The module of the guarded controller imports UsersModule.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly users: UsersService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const user = await loadSessionUser(context, this.users);
    if (!user || user.isBanned) throw new UnauthorizedException();
    return true;
  }
}

/**
 * For routes open to visitors that show a signed-in member something of their own (their votes): lets
 * every request through, with `@OptionalCurrentUser()` the member or null. As for SessionGuard, a banned
 * user counts as signed out. The module of the guarded controller imports UsersModule.
 */
@Injectable()
export class OptionalSessionGuard implements CanActivate {
  constructor(private readonly users: UsersService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const user = await loadSessionUser(context, this.users);
    if (user?.isBanned) context.switchToHttp().getRequest<Request>().currentUser = null;
    return true;
  }
}
