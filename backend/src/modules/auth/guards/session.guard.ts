import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request } from 'express';
import './bearer.js';
import { signedInUser } from '../session-user.js';
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
 * Loads the signed-in user afresh on every request (so a ban or deletion counts at once) as
 * `req.currentUser`; with an access token, the token's member. Every session guard goes through this.
 */
export async function loadSessionUser(context: ExecutionContext, users: UsersService): Promise<User | null> {
  const req = context.switchToHttp().getRequest<Request>();
  // A personal access token's request: TokenGuard loaded its member just now, and there is no session.
  if (req.accessToken) return req.currentUser ?? null;
  req.currentUser = await signedInUser(req, users);
  return req.currentUser;
}

/**
 * Signed in only, else 401 `Unauthorized` (a banned user counts as signed out). Its module imports
 * UsersModule.
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
 * For open routes that show a member something of their own (their votes): `@OptionalCurrentUser()` is
 * the member or null (banned counts as signed out). Its module imports UsersModule.
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
