import { SESSION_MAX_AGE_MS } from './session.middleware.js';

/**
 * Whether member `userId` used a session of theirs after `since` (SQL expressions), as an SQL boolean. A
 * session's expiry rolls SESSION_MAX_AGE_MS ahead of its last use (stored within an hour or two of it),
 * so no column of its own records visits. A member who signed out has no session: not seen since.
 */
export const sessionUsedSinceSql = (userId: string, since: string) =>
  `EXISTS (SELECT 1 FROM sessions WHERE user_id = ${userId}
    AND expires_at > ${since} + make_interval(secs => ${SESSION_MAX_AGE_MS / 1000}))`;
