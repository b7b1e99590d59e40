import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request } from 'express';
import type { User } from '../modules/users/entities/user.entity.js';
import { UsersService } from '../modules/users/users.service.js';

declare module 'express-session' {
  interface SessionData {
    /** The signed-in user; absent for a visitor. */
    userId: number;
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by SessionGuard: the signed-in user, loaded for this request. */
    currentUser?: User;
  }
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
    const req = context.switchToHttp().getRequest<Request>();
    const userId = req.session?.userId;
    if (userId === undefined) throw new UnauthorizedException();
    const user = await this.users.findById(userId);
    if (!user || user.isBanned) throw new UnauthorizedException();
    req.currentUser = user;
    return true;
  }
}
