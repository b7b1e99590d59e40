import type { Request } from 'express';
import passport from 'passport';
import type { User } from '../users/entities/user.entity.js';
import './session-user.js';

/** Gives a request passport's req.logIn (as passport.authenticate does for POST /api/login). */
const withPassport = passport.initialize();

/**
 * Signs a new account in, as sign-in does: req.logIn starts the session under a new id (a session id
 * known before sign-in is worthless after), stores the member's id and saves the session.
 */
export async function signIn(req: Request, user: User): Promise<void> {
  withPassport(req, req.res!, () => undefined);
  await new Promise<void>((resolve, reject) =>
    req.logIn(user, (error: unknown) => (error ? reject(error) : resolve())),
  );
}

/** Ends the session: its row is deleted (the caller clears the cookie). */
export async function signOut(req: Request): Promise<void> {
  if (!req.session) return;
  await new Promise<void>((resolve, reject) =>
    req.session.destroy((error: unknown) => (error ? reject(error) : resolve())),
  );
}
