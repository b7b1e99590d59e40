import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { AppConfig } from '../config/config.js';
import { bucketBaseUrl } from '../infra/storage/s3-address.js';
import { isHttps } from '../modules/auth/session.middleware.js';

/** HSTS (https only): 180 days, subdomains included. */
export const HSTS_MAX_AGE_SECONDS = 15_552_000;

type SecurityConfig = Pick<AppConfig, 'publicUrl' | 'remoteOrigins' | 'storage'>;

/**
 * The CSP: our origin and the remotes' only. Inline styles are allowed (Radix injects `<style>`, React
 * sets `style`); the S3 bucket may serve avatars, but the browser never connects to it.
 */
export function contentSecurityPolicyDirectives(config: SecurityConfig): Record<string, string[]> {
  const publicUrl = new URL(config.publicUrl);
  const https = publicUrl.protocol === 'https:';
  // 'self' covers ws(s) to our own host in current browsers, not in all: say it.
  const ownSocket = `${https ? 'wss' : 'ws'}://${publicUrl.host}`;
  const remotes = config.remoteOrigins;
  const images: string[] = [];
  if (config.storage.mode === 's3') {
    const bucket = new URL(bucketBaseUrl(config.storage)).origin;
    images.push(config.storage.publicUrl ? new URL(config.storage.publicUrl).origin : bucket);
  }
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...remotes],
    'style-src': ["'self'", "'unsafe-inline'", ...remotes],
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...unique(images)],
    'font-src': ["'self'", 'data:', ...remotes],
    'connect-src': unique(["'self'", ownSocket, ...remotes]),
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  if (https) directives['upgrade-insecure-requests'] = [];
  return directives;
}

/** The header's value, as `directive source source; directive …`. */
export function contentSecurityPolicy(config: SecurityConfig): string {
  return Object.entries(contentSecurityPolicyDirectives(config))
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * Security headers (helmet): the CSP, no framing, no referrer (a reset link's token must not travel),
 * HSTS on https. A route's stricter policy (stored uploads: `default-src 'none'`) replaces the CSP.
 */
export function securityHeaders(config: SecurityConfig): RequestHandler {
  const directives = contentSecurityPolicyDirectives(config);
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    strictTransportSecurity: isHttps(config)
      ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true, preload: false }
      : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // The shell, remotes and avatars are ours; other sites may not embed them.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  }) as RequestHandler;
}

/**
 * The embed's policy: any site may frame it (`frame-ancestors *`, no X-Frame-Options), and it loads
 * nothing and runs no script (its styles are inline). Every other page keeps `frame-ancestors 'none'`.
 */
export const EMBED_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; " +
  'frame-ancestors *';

/** Makes this answer framable by any site (an embed): replaces what securityHeaders set. */
export function allowFraming(res: Response): void {
  res.setHeader('Content-Security-Policy', EMBED_CONTENT_SECURITY_POLICY);
  res.removeHeader('X-Frame-Options');
  // Another origin loads it in its page.
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
}
