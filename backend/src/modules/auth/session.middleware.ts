import type { CookieOptions, RequestHandler } from 'express';
import session from 'express-session';
import type { AppConfig } from '../../config/config.js';
import type { SessionsService } from './sessions.service.js';
import { PgSessionStore } from './session.store.js';

export const SESSION_COOKIE = 'termpaste.sid';
/** Rolling: every response of a signed-in session moves the expiry this far ahead. */
export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** Injection token of the express-session middleware (createApp mounts it on /api). */
export const SESSION_MIDDLEWARE = Symbol('SESSION_MIDDLEWARE');
/**
 * The same for a read that may take its session as this instance read it a moment ago (SESSION_CACHE_MS):
 * createApp's choice for a GET that follows no write of its member's.
 */
export const SESSION_READS_MIDDLEWARE = Symbol('SESSION_READS_MIDDLEWARE');

export function isHttps(config: Pick<AppConfig, 'publicUrl'>): boolean {
  return new URL(config.publicUrl).protocol === 'https:';
}

/** The session cookie: out of scripts' reach, not sent on cross-site sub-requests, HTTPS-only on https. */
export function sessionCookieOptions(config: Pick<AppConfig, 'publicUrl'>): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: isHttps(config), path: '/' };
}

export function createSessionMiddleware(
  config: Pick<AppConfig, 'publicUrl' | 'sessionSecret'>,
  sessions: SessionsService,
  { cachedReads = false } = {},
): RequestHandler {
  return session({
    name: SESSION_COOKIE,
    secret: config.sessionSecret,
    store: new PgSessionStore(sessions, SESSION_MAX_AGE_MS, cachedReads),
    // Only signed-in sessions are stored; a visitor gets no cookie and costs no row.
    saveUninitialized: false,
    resave: false,
    rolling: true,
    cookie: { ...sessionCookieOptions(config), maxAge: SESSION_MAX_AGE_MS },
  }) as RequestHandler;
}
