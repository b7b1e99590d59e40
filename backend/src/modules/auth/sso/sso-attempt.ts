import { randomBytes } from 'node:crypto';
import type { SsoIntent } from '@termpaste/contracts';
import type { Request } from 'express';
import { sessionUserId } from '../session-user.js';

/** How long a sign-in at a provider may take, from the start to the callback. */
export const SSO_ATTEMPT_MAX_AGE_MS = 10 * 60 * 1000;

/**
 * A sign-in at a provider under way, kept in the express-session (server side: the cookie holds only the
 * session id) from the start to the callback, which takes it out: single use.
 */
export interface SsoAttempt {
  provider: string;
  intent: SsoIntent;
  /** Where to land after a sign-in (safeNextPath already applied). */
  next: string;
  /** The OAuth `state` sent to the provider; the callback must bring it back. */
  state: string;
  /** The member who asked to link (intent `link`); the callback must come in their session. */
  userId?: number;
  startedAt: number;
}

declare module 'express-session' {
  interface SessionData {
    ssoAttempt?: SsoAttempt;
    /** The words of the last refused provider sign-in, for the sign-in page (GET API.ssoRefusal). */
    ssoRefusal?: string;
  }
}

/** The attempt the request's session holds, if any (still in it). */
export function attemptOf(req: Request): SsoAttempt | undefined {
  return req.session?.ssoAttempt;
}

/**
 * Puts a new attempt in the session (replacing any older one). A visitor's session exists for this
 * attempt alone: its cookie and row last SSO_ATTEMPT_MAX_AGE_MS, and signing in replaces it with a new
 * session (passport's req.logIn regenerates the id), which has the usual lifetime.
 */
export function beginAttempt(req: Request, attempt: Omit<SsoAttempt, 'state' | 'startedAt'>): SsoAttempt {
  const begun: SsoAttempt = {
    ...attempt,
    state: randomBytes(32).toString('base64url'),
    startedAt: Date.now(),
  };
  req.session.ssoAttempt = begun;
  delete req.session.ssoRefusal;
  if (sessionUserId(req.session) === undefined) req.session.cookie.maxAge = SSO_ATTEMPT_MAX_AGE_MS;
  return begun;
}

/** Takes the session's attempt out of it (single use), whatever comes next. */
export function takeAttempt(req: Request): SsoAttempt | undefined {
  const attempt = req.session?.ssoAttempt;
  if (attempt) delete req.session.ssoAttempt;
  return attempt;
}

/**
 * Whether the callback of `provider` that brought `state` answers `attempt`: the same provider, the same
 * state, in time.
 */
export function answersAttempt(
  attempt: SsoAttempt | undefined,
  provider: string,
  state: unknown,
  now = Date.now(),
): attempt is SsoAttempt {
  return (
    attempt !== undefined &&
    attempt.provider === provider &&
    typeof state === 'string' &&
    state === attempt.state &&
    now - attempt.startedAt <= SSO_ATTEMPT_MAX_AGE_MS
  );
}
