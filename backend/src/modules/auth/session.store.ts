import { type SessionData, Store } from 'express-session';
import { SessionsService, type StoredSession } from './sessions.service.js';
import { fromStoredSession, storedSessionUserId } from './session-user.js';

/** express-session's store interface over our `sessions` table. */
export class PgSessionStore extends Store {
  constructor(
    private readonly sessions: SessionsService,
    private readonly maxAgeMs: number,
  ) {
    super();
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    this.sessions.get(sid).then(
      (data) => callback(null, data ? fromStoredSession(data) : null),
      (error: unknown) => callback(error),
    );
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
