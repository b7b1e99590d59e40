import type { Request } from 'express';
import { type Session, type SessionData, Store } from 'express-session';
import type { User } from '../users/entities/user.entity.js';
import { SessionsService, type StoredSession } from './sessions.service.js';
import { fromStoredSession, storedSessionUserId } from './session-user.js';

/** Where get() leaves the member on the session data it hands express-session, for createSession. */
const SESSION_USER = Symbol('session member');
type WithSessionUser = SessionData & { [SESSION_USER]?: User | null };

/** express-session's store interface over our `sessions` table. */
export class PgSessionStore extends Store {
  /** `cachedReads`: reads may take a session this instance read a moment ago (SessionsService.get). */
  constructor(
    private readonly sessions: SessionsService,
    private readonly maxAgeMs: number,
    private readonly cachedReads = false,
  ) {
    super();
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    this.sessions.get(sid, { cached: this.cachedReads }).then((found) => {
      if (!found) return callback(null, null);
      // A symbol: express-session copies, hashes and saves only the data's own string keys.
      const data: WithSessionUser = fromStoredSession(found.data);
      data[SESSION_USER] = found.user;
      callback(null, data);
    }, callback);
  }

  /** express-session makes req.session of what get() read: the member read with it goes on the request. */
  override createSession(req: Request, data: SessionData): Session & SessionData {
    const user = (data as WithSessionUser)[SESSION_USER];
    if (user !== undefined) req.sessionUser = user;
    return super.createSession(req, data);
  }

  override set(sid: string, session: SessionData, callback?: (err?: unknown) => void): void {
    this.sessions
      .set(sid, session as unknown as StoredSession, storedSessionUserId(session), this.expiresAt(session))
      .then(() => callback?.(), callback);
  }

  override touch(sid: string, session: SessionData, callback?: (err?: unknown) => void): void {
    this.sessions.touch(sid, session.cookie, this.expiresAt(session)).then(() => callback?.(), callback);
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.sessions.destroy(sid).then(() => callback?.(), callback);
  }

  private expiresAt(session: SessionData): Date {
    const expires = session.cookie?.expires;
    return expires ? new Date(expires) : new Date(Date.now() + this.maxAgeMs);
  }
}
