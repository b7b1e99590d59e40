import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Express, Request, Response } from 'express';
import { type Observable, tap } from 'rxjs';
import { hasCookie } from '../common/cookies.js';
import { SESSION_COOKIE } from '../modules/auth/session.middleware.js';

/**
 * How long a shared cache in front (nginx's proxy_cache, a CDN) may answer a visitor's read of a public
 * page without asking the app: a change (a new paste on home) reaches visitors within this.
 */
export const EDGE_FRESH_SECONDS = 5;
/**
 * How much longer it may hand out the old page while one request fetches the new one, so a popular page
 * never waits on the app. Nothing older than EDGE_FRESH_SECONDS + this is ever served.
 */
export const EDGE_STALE_SECONDS = 10;

/**
 * A visitor's page: a shared cache keeps it EDGE_FRESH_SECONDS, a browser keeps it but asks each time
 * (max-age=0, with the ETag: a 304 while unchanged).
 */
export const EDGE_CACHE_CONTROL = sharedCacheControl(0);
/** What a cache in front keys an answer on besides its address: set once, as one header. */
export const EDGE_VARY = 'Accept-Encoding, Cookie, Authorization';
const EDGE_VARY_FIELDS = EDGE_VARY.split(', ');
/** An answer made for one member (or that might be): their browser only, asked each time. */
export const PERSONAL_CACHE_CONTROL = 'private, no-cache';

function sharedCacheControl(browserSeconds: number): string {
  return `public, max-age=${browserSeconds}, s-maxage=${EDGE_FRESH_SECONDS}, stale-while-revalidate=${EDGE_STALE_SECONDS}`;
}

/**
 * Whether a request may be a member's: it carries our session cookie or an Authorization header (a
 * personal access token). Its answer is never shared, whatever it holds; nginx skips its cache for the
 * same requests.
 */
export function mayBeMember(req: Request): boolean {
  return hasCookie(req, SESSION_COOKIE) || req.headers.authorization !== undefined;
}

/**
 * The cache rule of a page a visitor may read (JSON, feed, embed, app page): shared by caches in front;
 * `private, no-cache` for a request that may be a member's or when `personal` (one reader's data: their
 * votes, a keyed paste). `browserSeconds`: how long a browser or feed reader may keep it unasked.
 */
export function edgeCacheHeaders(
  req: Request,
  res: Response,
  { personal = false, browserSeconds = 0 }: { personal?: boolean; browserSeconds?: number } = {},
): void {
  const shared = !personal && !mayBeMember(req);
  res.setHeader(
    'Cache-Control',
    !shared
      ? PERSONAL_CACHE_CONTROL
      : browserSeconds === 0
        ? EDGE_CACHE_CONTROL
        : sharedCacheControl(browserSeconds),
  );
  // Every answer of the hot reads: one header set, not three merges (a Vary set before, CORS's, is kept).
  if (res.getHeader('Vary') === undefined) res.setHeader('Vary', EDGE_VARY);
  else for (const field of EDGE_VARY_FIELDS) res.vary(field);
}

/** Whether a Cache-Control lets a shared cache keep the answer. */
function sharedCacheable(cacheControl: unknown): boolean {
  const value = String(cacheControl ?? '').toLowerCase();
  return /\b(public|s-maxage)\b/.test(value) && !/\b(private|no-store)\b/.test(value);
}

/**
 * An answer that sets a cookie is never one a shared cache may keep, whatever its handler said: checked as
 * the headers go out (after the session's rolling cookie is set), by the app's own `writeHead`, so that no
 * request pays for a wrapper of its own.
 */
export function noSharedCookies(app: Express): void {
  const { response } = app;
  const writeHead = response.writeHead;
  response.writeHead = function (this: Response, ...args: unknown[]) {
    if (this.getHeader('Set-Cookie') !== undefined && sharedCacheable(this.getHeader('Cache-Control'))) {
      this.setHeader('Cache-Control', PERSONAL_CACHE_CONTROL);
    }
    return Reflect.apply(writeHead, this, args) as Response;
  } as Response['writeHead'];
}

/**
 * For a public read a Nest handler answers by returning its value (tags, oEmbed): edgeCacheHeaders on
 * its success (an error is never kept: it carries no shared rule).
 */
@Injectable()
export class EdgeCached implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    return next
      .handle()
      .pipe(tap(() => edgeCacheHeaders(http.getRequest<Request>(), http.getResponse<Response>())));
  }
}
