import type { Session, SessionData } from 'express-session';

declare module 'express-session' {
  interface SessionData {
    /**
     * passport's login session (its SessionManager writes it at sign-in): `user` is what SessionSerializer
     * made of the member, their id. Absent for a visitor.
     */
    passport?: { user?: number };
  }
}

/** The id of the member a session is signed in as (SessionSerializer's `user.id`), or undefined. */
export function sessionUserId(session: (Session & Partial<SessionData>) | undefined): number | undefined {
  return session?.passport?.user;
}

/** The member a stored session's JSON is signed in as, for the `sessions.user_id` column; or null. */
export function storedSessionUserId(data: Partial<SessionData>): number | null {
  return data.passport?.user ?? null;
}

/**
 * A stored session's JSON as express-session gets it. Sessions stored before passport did sign-in kept
 * the member as `{ userId }`: read in passport's layout, they stay signed in (and are not rewritten: the
 * `user_id` column already names their member).
 */
export function fromStoredSession(data: Record<string, unknown>): SessionData {
  const { userId, ...rest } = data;
  if (typeof userId !== 'number' || rest['passport'] !== undefined) return data as unknown as SessionData;
  return { ...rest, passport: { user: userId } } as unknown as SessionData;
}
