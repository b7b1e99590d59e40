import { type ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { loginSchema } from '@termpaste/contracts';
import type { Request } from 'express';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import './session-user.js';

const validLogin = new ZodValidationPipe(loginSchema);

/**
 * Sign-in by passport (POST /api/login): the body is validated first (the same 400s as any body, and the
 * strategy reads the parsed body: `usernameOrEmail` trimmed), then LocalStrategy checks the credentials
 * (its 401 / 403 as thrown), then passport signs the member in (req.logIn: a new session id, the id from
 * SessionSerializer, the session saved). The member is the request's `currentUser` (PassportModule's
 * `property`), for `@CurrentUser()`. Goes after the login rate limit, which counts every attempt.
 */
@Injectable()
export class LocalAuthGuard extends AuthGuard('local') {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    req.body = validLogin.transform(req.body, { type: 'body' });
    await super.canActivate(context);
    await super.logIn(req);
    return true;
  }
}
