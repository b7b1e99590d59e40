import { type ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { loginSchema } from '@termpaste/contracts';
import type { Request } from 'express';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import './session-user.js';

const validLogin = new ZodValidationPipe(loginSchema);

/**
 * Sign-in (POST /api/login): the body validated first (the strategy reads the parsed body), then
 * LocalStrategy checks the credentials, then passport signs in (a new session id). The member becomes
 * `currentUser`. Goes after the login rate limit, which counts every attempt.
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
