import type { Request } from 'express';
import { isLoopbackHost } from './url-host.js';

/** The settings that name our own site (AppConfig's PUBLIC_URL and ALLOWED_ORIGINS, parsed). */
export interface SiteOrigins {
  publicUrl: string;
  publicUrlSet: boolean;
  allowedOrigins: readonly string[];
}

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
export function trustedOrigins(config: SiteOrigins): TrustedOrigins {
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
