import { type CanActivate, ForbiddenException, Injectable, UseGuards } from '@nestjs/common';
import { SSO_MESSAGES } from '@termpaste/contracts';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';

/** Password sign-in, registration and password resets, unless LOCAL_LOGIN=off (then 403). */
@Injectable()
export class LocalLoginGuard implements CanActivate {
  constructor(@InjectConfig() private readonly config: Pick<AppConfig, 'sso'>) {}

  canActivate(): boolean {
    if (!this.config.sso.localLogin) throw new ForbiddenException(SSO_MESSAGES.localLoginOff);
    return true;
  }
}

/**
 * A password-account route: 403 under LOCAL_LOGIN=off before anything else (no body read, no limit
 * counted). Write it below the route's other guards: guards run bottom-up.
 */
export const LocalLoginOnly = (): MethodDecorator => UseGuards(LocalLoginGuard);
