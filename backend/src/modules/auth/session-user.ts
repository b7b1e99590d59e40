import type { Request } from 'express';
import type { Session, SessionData } from 'express-session';
import './guards/bearer.js';
import type { User } from '../users/entities/user.entity.js';
import type { UsersService } from '../users/users.service.js';

declare module 'express-session' {
  interface SessionData {
    /**
     * passport's login session (its SessionManager writes it at sign-in): `user` is what SessionSerializer
     * made of the member, their id. Absent for a visitor.
     */
    passport?: { user?: number };
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    /**
     * The member the request's stored session named when the session store read it, as they were then
     * (null: none, or the account is gone); undefined when no stored session was read (PgSessionStore).
     */
    sessionUser?: User | null;
  }
}

/**
 * The member the request's session is signed in as, as they are now (a ban or a deletion counts at once),
 * or null: the member the session store read with the session at the start of this request when the
 * session still names them (one round trip fewer), else a read now (a sign-in since, say).
 */
export async function signedInUser(
  req: Request,
  users: Pick<UsersService, 'findById'>,
): Promise<User | null> {
  const userId = sessionUserId(req.session);
  if (userId === undefined) return null;
  if (req.sessionUser?.id === userId) return req.sessionUser;
  return users.findById(userId);
}

/**
 * Whether the request is a signed-in member's, by a valid session: the session store read a session
 * naming a member who exists and is not banned (no round trip: that read came with the session). Never a
 * personal access token's request, nor a visitor's with made-up cookies.
 */
export function signedInBySession(req: Request): boolean {
  const user = req.sessionUser;
  return !req.accessToken && !!user && !user.isBanned && sessionUserId(req.session) === user.id;
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
