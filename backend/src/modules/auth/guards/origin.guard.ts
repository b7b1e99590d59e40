import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import {
  CROSS_SITE_REFUSED,
  isOwnSiteRequest,
  type SiteOrigins,
  type TrustedOrigins,
  trustedOrigins,
} from '../../../common/origins.js';
import { isSignedRequestHandler } from '../../../common/signed-request.js';
import { InjectConfig } from '../../../config/config.module.js';
import { isBearerRequest } from './bearer.js';

/**
 * CSRF defence: a POST, PUT, PATCH or DELETE must show our own origin (Origin, else Referer), else 403
 * before anything runs. Bearer-token requests carry no cookie, so TokenGuard judges them instead.
 */
@Injectable()
export class OriginGuard implements CanActivate {
  private readonly trusted: TrustedOrigins;

  constructor(@InjectConfig() config: SiteOrigins) {
    this.trusted = trustedOrigins(config);
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    // A presigned upload: its signature, not a cookie, authorizes it (see SignedRequest).
    if (isSignedRequestHandler(context.getHandler())) return true;
    const req = context.switchToHttp().getRequest<Request>();
    // A personal access token: it alone authorizes the request (TokenGuard), no cookie is read or set.
    if (isBearerRequest(req)) return true;
    if (isOwnSiteRequest(req, this.trusted)) return true;
    throw new ForbiddenException(CROSS_SITE_REFUSED);
  }
}
