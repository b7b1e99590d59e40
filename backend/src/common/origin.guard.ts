import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { AppConfig } from '../config/config.js';
import { InjectConfig } from '../config/config.module.js';
import { isBearerRequest } from './bearer.js';
import { isSignedRequestHandler } from './signed-request.js';
import { isLoopbackHost } from './url-host.js';

export const CROSS_SITE_REFUSED = 'Cross-site request refused';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin of a URL (`https://host:port`), or undefined when it is none (also for an opaque `null`). */
export function originOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The origin a state-changing request comes from: its Origin header, or absent that its Referer's
 * origin (some browsers omit Origin on same-origin requests).
 */
export function requestOrigin(req: Pick<Request, 'headers'>): string | undefined {
  const { origin, referer } = req.headers;
  return origin !== undefined ? originOf(origin) : originOf(referer);
}

/** The origins that are our own site (see trustedOrigins). */
export interface TrustedOrigins {
  has(origin: string): boolean;
}

/**
 * Our own site's origins: PUBLIC_URL's and ALLOWED_ORIGINS; with PUBLIC_URL unset, any loopback origin.
 * Never the Host header's: a DNS-rebinding page sends a matching Host and Origin alike.
 */
export function trustedOrigins(
  config: Pick<AppConfig, 'publicUrl' | 'publicUrlSet' | 'allowedOrigins'>,
): TrustedOrigins {
  const listed = new Set(config.allowedOrigins);
  if (config.publicUrlSet) listed.add(new URL(config.publicUrl).origin);
  return {
    has: (origin) => {
      if (listed.has(origin)) return true;
      if (config.publicUrlSet) return false;
      try {
        const url = new URL(origin);
        return ['http:', 'https:'].includes(url.protocol) && isLoopbackHost(url.hostname);
      } catch {
        return false;
      }
    },
  };
}

/**
 * Whether a request may change state: a GET, HEAD or OPTIONS, or a trusted origin. Plain Express
 * middleware that changes state (the queue dashboard) calls it itself.
 */
export function isOwnSiteRequest(req: Request, trusted: TrustedOrigins): boolean {
  if (SAFE_METHODS.has(req.method)) return true;
  const origin = requestOrigin(req);
  return origin !== undefined && trusted.has(origin);
}

/**
 * CSRF defence: a POST, PUT, PATCH or DELETE must show our own origin (Origin, else Referer), else 403
 * before anything runs. Bearer-token requests carry no cookie, so TokenGuard judges them instead.
 */
@Injectable()
export class OriginGuard implements CanActivate {
  private readonly trusted: TrustedOrigins;

  constructor(@InjectConfig() config: Pick<AppConfig, 'publicUrl' | 'publicUrlSet' | 'allowedOrigins'>) {
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
