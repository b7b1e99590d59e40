import type { IncomingMessage } from 'node:http';
import type { RequestToken } from '../tokens/access-tokens.service.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by TokenGuard on a request authenticated by a personal access token: its id and scopes. */
    accessToken?: RequestToken;
  }
}

/**
 * Whether a request offers a personal access token (a Bearer `Authorization` header, any case, even
 * empty). Such a request is judged by TokenGuard alone: no session cookie read or set, no Origin check.
 */
export function isBearerRequest(req: Pick<IncomingMessage, 'headers'>): boolean {
  const header = req.headers.authorization;
  return typeof header === 'string' && /^\s*bearer(\s|$)/i.test(header);
}
