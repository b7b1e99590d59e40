import { stat } from 'node:fs/promises';
import path from 'node:path';
import { NotFoundException } from '@nestjs/common';
import { REMOTE_NAMES, REMOTES_MANIFEST_PATH, type RemotesManifest } from '@termpaste/contracts';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { AppConfig } from '../config/config.js';

const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A content hash in the file name (`123.abcd1234.js`, `main-0f3e5a7b.css`): the file never changes. */
const FINGERPRINTED = /[.-][0-9a-f]{8,}(\.[a-z0-9]+)+$/;

/** A missing file with one of these extensions is a 404, not the app page (a browser asked for an asset). */
const ASSET_EXTENSION = /\.(m?js|css|map|json|wasm|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|eot|txt)$/i;

export const SHELL_NOT_BUILT_MESSAGE =
  'The Termpaste frontend is not built yet. Run `npm run build` at the repository root, then reload.';

/** `remotes.json`: each remote's manifest under /remotes/<name>/, unless REMOTE_URLS moves it elsewhere. */
export function remotesManifest(config: Pick<AppConfig, 'remoteUrls'>): RemotesManifest {
  return Object.fromEntries(
    REMOTE_NAMES.map((name) => [name, config.remoteUrls[name] ?? `/remotes/${name}/remoteEntry.js`]),
  );
}

function isServerPath(urlPath: string): boolean {
  return /^\/(api|ws)(\/|$)/.test(urlPath);
}

function setCacheHeaders(res: Response, filePath: string): void {
  res.setHeader('Cache-Control', FINGERPRINTED.test(path.basename(filePath)) ? IMMUTABLE : NO_CACHE);
}

function serveDirectory(root: string): express.RequestHandler {
  return express.static(root, {
    index: false,
    redirect: false,
    cacheControl: false,
    setHeaders: setCacheHeaders,
  });
}

function isReadOnly(req: Request): boolean {
  return req.method === 'GET' || req.method === 'HEAD';
}

/**
 * The built frontends on the API's port: the shell at `/` (its index.html for every app path, so deep
 * links work), each remote at `/remotes/<name>/`, and `remotes.json`. `/api` and `/ws` pass through.
 */
export function frontendsRouter(config: Pick<AppConfig, 'frontendsDir' | 'remoteUrls'>): Router {
  const router = express.Router();
  const shellDist = path.join(config.frontendsDir, 'shell', 'dist');
  const shellIndex = path.join(shellDist, 'index.html');
  const serveShellFiles = serveDirectory(shellDist);

  router.get(REMOTES_MANIFEST_PATH, (_req, res) => {
    res.setHeader('Cache-Control', NO_CACHE);
    res.json(remotesManifest(config));
  });

  for (const name of REMOTE_NAMES) {
    router.use(`/remotes/${name}`, serveDirectory(path.join(config.frontendsDir, name, 'dist')));
  }
  // Never the app page under /remotes: a remote's missing chunk must fail loudly.
  router.use('/remotes', (req, _res, next) =>
    next(new NotFoundException(`Cannot ${req.method} ${req.originalUrl}`)),
  );

  router.use((req, res, next) => {
    if (!isReadOnly(req) || isServerPath(req.path)) return next();
    serveShellFiles(req, res, next);
  });

  router.use((req: Request, res: Response, next: NextFunction) => {
    if (!isReadOnly(req) || isServerPath(req.path)) return next();
    if (ASSET_EXTENSION.test(req.path)) {
      return next(new NotFoundException(`Cannot ${req.method} ${req.originalUrl}`));
    }
    stat(shellIndex).then(
      () =>
        res.sendFile(shellIndex, { headers: { 'Cache-Control': NO_CACHE } }, (error) => {
          if (error && !res.headersSent) next(error);
        }),
      () => {
        res
          .status(503)
          .setHeader('Cache-Control', 'no-store')
          .type('text/plain')
          .send(SHELL_NOT_BUILT_MESSAGE);
      },
    );
  });

  return router;
}
