import type { Request } from 'express';
import '../../common/session.guard.js';

/** Starts a signed-in session under a new id (a session id known before sign-in is worthless after). */
export async function signIn(req: Request, userId: number): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    req.session.regenerate((error: unknown) => (error ? reject(error) : resolve())),
  );
  req.session.userId = userId;
  await new Promise<void>((resolve, reject) =>
    req.session.save((error: unknown) => (error ? reject(error) : resolve())),
  );
}

/** Ends the session: its row is deleted (the caller clears the cookie). */
export async function signOut(req: Request): Promise<void> {
  if (!req.session) return;
  await new Promise<void>((resolve, reject) =>
    req.session.destroy((error: unknown) => (error ? reject(error) : resolve())),
  );
}
