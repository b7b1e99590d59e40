import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { User } from '../../users/entities/user.entity.js';
import './session.guard.js';

/** The signed-in user of a route guarded by SessionGuard: `me(@CurrentUser() user: User)`. */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): User => {
  const user = context.switchToHttp().getRequest<Request>().currentUser;
  if (!user) throw new Error('@CurrentUser() needs SessionGuard on the route');
  return user;
});

/**
 * The signed-in member, or null for a visitor, on a route guarded by OptionalSessionGuard:
 * `thread(@OptionalCurrentUser() user: User | null)`.
 */
export const OptionalCurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): User | null => {
    const user = context.switchToHttp().getRequest<Request>().currentUser;
    if (user === undefined) throw new Error('@OptionalCurrentUser() needs OptionalSessionGuard on the route');
    return user;
  },
);
