import type { IncomingMessage } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { API } from '@termpaste/contracts';
import type { Request } from 'express';

/** Largest JSON request body; a bigger one gets a 413. */
export const JSON_BODY_LIMIT = '100kb';

/**
 * A route that reads its own body, left unread by the app's parsers: `reads: 'json'` its JSON only, `'any'`
 * whatever its type. `path`: one route (`:name` a segment), matched as loosely as the router (any case,
 * trailing slashes); `under`: a path and everything under it, exactly.
 */
export type OwnBodyRoute =
  { method: string; path: string; reads: 'json' | 'any' } | { under: string; reads: 'any' };

/** Every route that reads its own body: the one place that decides it. */
export const OWN_BODY_ROUTES: readonly OwnBodyRoute[] = [
  // Upload forms, presigned PUTs, the local storage's files: streamed to disk unread, whatever
  // Content-Type they claim.
  { under: API.uploads, reads: 'any' },
  // A paste from the terminal (PasteIntakeGuard), stored byte for byte: curl --data-binary sends it as a
  // form, which the app's form parser would decode; never more than PASTE_MAX_BYTES of it held.
  { method: 'POST', path: API.pastes, reads: 'any' },
  // The web form's paste and an edit (PasteJsonGuard): JSON with room for a paste of PASTE_MAX_BYTES.
  { method: 'POST', path: API.threads, reads: 'json' },
  { method: 'PATCH', path: API.thread(':id'), reads: 'json' },
];

/** A route's path as a pattern of a request's path, lower-cased and without its trailing slashes. */
function pathPattern(path: string): RegExp {
  const escaped = path.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/:[a-z]+/g, '[^/]+')}$`);
}

type Matcher = (req: IncomingMessage, path: string) => boolean;

function matcherOf(route: OwnBodyRoute): Matcher {
  if ('under' in route) return (_req, path) => path === route.under || path.startsWith(`${route.under}/`);
  const pattern = pathPattern(route.path);
  // Without the query, any case, no trailing slash.
  return (req, path) => req.method === route.method && pattern.test(path.toLowerCase().replace(/\/+$/, ''));
}

const readsJson = OWN_BODY_ROUTES.map(matcherOf);
const readsAny = OWN_BODY_ROUTES.filter((route) => route.reads === 'any').map(matcherOf);

/** Whether the request's route reads its own body of this kind (OWN_BODY_ROUTES). */
export function readsOwnBody(req: IncomingMessage, kind: 'json' | 'form'): boolean {
  const path = (req.url ?? '').split('?')[0]!;
  return (kind === 'json' ? readsJson : readsAny).some((reads) => reads(req, path));
}

/** Which requests a body parser reads: those of its media type, save the routes that read their own. */
const parsedUnlessOwn = (type: string, kind: 'json' | 'form') => (req: IncomingMessage) =>
  !readsOwnBody(req, kind) && Boolean((req as Request).is(type));

/** The app's body parsers: JSON (JSON_BODY_LIMIT) and forms, for every route but OWN_BODY_ROUTES. */
export function useBodyParsers(app: NestExpressApplication): void {
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT, type: parsedUnlessOwn('application/json', 'json') });
  // Registered here so Nest does not add its own (which would read upload bodies too).
  app.useBodyParser('urlencoded', {
    extended: true,
    type: parsedUnlessOwn('application/x-www-form-urlencoded', 'form'),
  });
}
