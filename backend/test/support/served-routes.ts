import type { NestExpressApplication } from '@nestjs/platform-express';

/** A route the app serves: its method (`*` for a mounted application that takes any) and its path. */
export interface ServedRoute {
  method: string;
  /** As OpenAPI writes it: Express's `:id` and `*key` become `{id}` and `{key}`. */
  path: string;
}

/** What Express 5's router keeps of each `app.use` / `app.get` (router 2.x's Layer and Route). */
interface Layer {
  rawPath?: unknown;
  slash?: boolean;
  handle: { stack?: Layer[] } & ((...args: never[]) => unknown);
  route?: { path: unknown; methods: Record<string, boolean> };
}

const openApiPath = (path: string) =>
  path.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}').replace(/(.)\/$/, '$1');

function layerPath(layer: Layer, what: string): string {
  if (typeof layer.rawPath !== 'string') {
    throw new Error(`cannot read the path of ${what}: ${String(layer.rawPath)} (not a string)`);
  }
  return layer.rawPath;
}

/** The routes of one router, its paths under `prefix`. */
function walk(stack: readonly Layer[], prefix: string, served: ServedRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const path = openApiPath(prefix + layerPath(layer, 'a route'));
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on) served.push({ method: method === '_all' ? '*' : method, path });
      }
    } else if (Array.isArray(layer.handle.stack)) {
      // A router mounted with app.use(path, router): its routes under the path; one with no routes at all
      // (a whole application, the queue dashboard) serves its path for any method.
      const mount = prefix + (layer.slash ? '' : layerPath(layer, 'a mounted router'));
      const before = served.length;
      walk(layer.handle.stack, mount, served);
      if (served.length === before && mount !== prefix)
        served.push({ method: '*', path: openApiPath(mount) });
    }
    // Else a middleware (sessions, headers, body parsers, the error and not-found handlers): it serves no
    // route of its own.
  }
}

/**
 * Every route the running app serves, read from the Express router it built: Nest's controllers register
 * each route there (`app.get(path, handler)`), beside the plain Express routers (docs, queue dashboard,
 * frontends). Sorted, without duplicates.
 */
export function servedRoutes(app: NestExpressApplication): ServedRoute[] {
  const express = app.getHttpAdapter().getInstance() as { router?: { stack: Layer[] } };
  if (!express.router) throw new Error('the Express application has no router');
  const served: ServedRoute[] = [];
  walk(express.router.stack, '', served);
  const unique = new Map(served.map((route) => [`${route.method} ${route.path}`, route]));
  return [...unique.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, route]) => route);
}
