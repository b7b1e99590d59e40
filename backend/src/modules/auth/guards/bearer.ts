import type { IncomingMessage } from 'node:http';
import type { RequestToken } from '../tokens/access-tokens.service.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by TokenGuard on a request authenticated by a personal access token: its id and scopes. */
    accessToken?: RequestToken;
  }
}

/**
 * Whether a request offers a personal access token: an `Authorization` header of the Bearer scheme
 * (any letter case, even with nothing after it). Such a request is judged by the token alone: the session
 * middleware does not run for it (no cookie read, none set), OriginGuard lets it through (no cookie is
 * involved), and TokenGuard authenticates it or refuses it.
 */
export function isBearerRequest(req: Pick<IncomingMessage, 'headers'>): boolean {
  const header = req.headers.authorization;
  return typeof header === 'string' && /^\s*bearer(\s|$)/i.test(header);
}
