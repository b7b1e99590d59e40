import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** A request id we take from the client (or a proxy): a short token, nothing that could forge a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,64}$/;

/** The client's `X-Request-Id` when it is a sane token, else a new random one. */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * Gives every request an id (`req.id`), echoed in the `X-Request-Id` response header: the proxy's or the
 * client's when sane, else generated. The JSON logs put it on every line written for the request.
 */
export function requestId(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const id = requestIdFor(req.headers['x-request-id']);
  req.id = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
}
