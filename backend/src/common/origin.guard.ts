import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { AppConfig } from '../config/config.js';
import { InjectConfig } from '../config/config.module.js';
import { isSignedRequestHandler } from './signed-request.js';

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

/** The origin the request was addressed to, from its Host header (behind a proxy: as forwarded). */
function hostOrigin(req: Request): string | undefined {
  const host = req.get('host');
  return host ? originOf(`${req.protocol}://${host}`) : undefined;
}

/** Our own site's origins besides the one a request was addressed to: PUBLIC_URL's and ALLOWED_ORIGINS. */
export function trustedOrigins(config: Pick<AppConfig, 'publicUrl' | 'allowedOrigins'>): Set<string> {
  return new Set([new URL(config.publicUrl).origin, ...config.allowedOrigins]);
}

/**
 * Whether a request may change state: a GET, HEAD or OPTIONS, or one whose origin (requestOrigin) is
 * trusted or the one it was addressed to. OriginGuard checks Nest's routes with it; plain Express
 * middleware that changes state (the queue dashboard) calls it itself.
 */
export function isOwnSiteRequest(req: Request, trusted: ReadonlySet<string>): boolean {
  if (SAFE_METHODS.has(req.method)) return true;
  const origin = requestOrigin(req);
  return origin !== undefined && (trusted.has(origin) || origin === hostOrigin(req));
}

/**
 * CSRF defence on every route: a POST, PUT, PATCH or DELETE must come from our own site (PUBLIC_URL's
 * origin, the origin it was addressed to, or one of ALLOWED_ORIGINS), shown by its Origin header, or
 * absent that its Referer. Otherwise 403 before anything runs.
 */
@Injectable()
export class OriginGuard implements CanActivate {
  private readonly trusted: Set<string>;

  constructor(@InjectConfig() config: Pick<AppConfig, 'publicUrl' | 'allowedOrigins'>) {
    this.trusted = trustedOrigins(config);
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    // A presigned upload: its signature, not a cookie, authorizes it (see SignedRequest).
    if (isSignedRequestHandler(context.getHandler())) return true;
    if (isOwnSiteRequest(context.switchToHttp().getRequest<Request>(), this.trusted)) return true;
    throw new ForbiddenException(CROSS_SITE_REFUSED);
  }
}
