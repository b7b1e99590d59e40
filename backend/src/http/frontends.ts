import { stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { NotFoundException } from '@nestjs/common';
import { REMOTE_NAMES, REMOTES_MANIFEST_PATH, type RemotesManifest } from '@termpaste/contracts';
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import type { AppConfig } from '../config/config.js';
import { AppPages } from './first-paint.js';

const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A content hash in the file name (`123.abcd1234.js`, `main-0f3e5a7b.css`): the file never changes. */
const FINGERPRINTED = /[.-][0-9a-f]{8,}(\.[a-z0-9]+)+$/;

/** A missing file with one of these extensions is a 404, not the app page (a browser asked for an asset). */
const ASSET_EXTENSION = /\.(m?js|css|map|json|wasm|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|eot|txt)$/i;

/**
 * Files the builds precompress (frontends/mf-shared.ts writes `<file>.br` and `<file>.gz` beside each):
 * their answer depends on the request's Accept-Encoding.
 */
const PRECOMPRESSED = /\.(m?js|css|html|json|svg)$/i;

/** The codings we have copies in, best first. */
const ENCODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;

type Coding = (typeof ENCODINGS)[number]['coding'];

/** How much a request's Accept-Encoding wants a coding: its q-value (1 by default), 0 for not at all. */
function qualityOf(acceptEncoding: string, coding: Coding): number {
  let named: number | undefined;
  let any: number | undefined;
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => /^q=/i.test(param));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    if (name.toLowerCase() === coding) named = quality;
    else if (name === '*') any = quality;
  }
  const quality = named ?? any ?? 0;
  return Number.isFinite(quality) ? quality : 0;
}

/**
 * The codings a request accepts, the one it wants most first (ours, brotli, on a tie); none without an
 * Accept-Encoding.
 */
function acceptedCodings(req: Request): Coding[] {
  const header = req.headers['accept-encoding'];
  if (!header) return [];
  return ENCODINGS.map(({ coding }) => ({ coding, quality: qualityOf(header, coding) }))
    .filter(({ quality }) => quality > 0)
    .sort((a, b) => b.quality - a.quality)
    .map(({ coding }) => coding);
}

async function isFile(filePath: string): Promise<boolean> {
  try {
    return (await stat(filePath)).isFile();
  } catch {
    return false;
  }
}

/**
 * Sends a precompressed copy of `filePath` in the best coding the request accepts, with the original's
 * type and cache rule. Resolves false (nothing sent) when the file has no such copy, or is not there.
 */
async function sendPrecompressed(
  req: Request,
  res: Response,
  next: NextFunction,
  filePath: string,
  cacheControl: string,
): Promise<boolean> {
  res.vary('Accept-Encoding');
  for (const coding of acceptedCodings(req)) {
    const { suffix } = ENCODINGS.find((encoding) => encoding.coding === coding)!;
    if (!(await isFile(filePath + suffix)) || !(await isFile(filePath))) continue;
    res.type(path.extname(filePath));
    res.setHeader('Content-Encoding', coding);
    res.sendFile(filePath + suffix, { headers: { 'Cache-Control': cacheControl } }, (error) => {
      if (error && !res.headersSent) next(error);
    });
    return true;
  }
  return false;
}

/** The file a URL path names under `root`, or null for a path that leaves it or names a dotfile. */
function fileUnder(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split(/[\\/]/).some((part) => part.startsWith('.'))) return null;
  const filePath = path.join(root, decoded);
  return filePath.startsWith(root + path.sep) ? filePath : null;
}

export const SHELL_NOT_BUILT_MESSAGE =
  'The Termpaste frontend is not built yet. Run `npm run build` at the repository root, then reload.';

/** `remotes.json`: each remote's manifest under /remotes/<name>/, unless REMOTE_URLS moves it elsewhere. */
export function remotesManifest(config: Pick<AppConfig, 'remoteUrls'>): RemotesManifest {
  return Object.fromEntries(
    REMOTE_NAMES.map((name) => [name, config.remoteUrls[name] ?? `/remotes/${name}/remoteEntry.js`]),
  );
}

/**
 * Whether a path is the server's, in any letter case (`/API/…` is no app page: the API answers it, 404):
 * the API, the socket, the Atom feeds and the embeds.
 */
function isServerPath(urlPath: string): boolean {
  return /^\/(api|ws|feeds|embed)(\/|$)/i.test(urlPath);
}

function cacheControlOf(filePath: string): string {
  return FINGERPRINTED.test(path.basename(filePath)) ? IMMUTABLE : NO_CACHE;
}

function setCacheHeaders(res: Response, filePath: string): void {
  res.setHeader('Cache-Control', cacheControlOf(filePath));
}

/** A build folder: a file's precompressed copy to a browser that accepts it, else the file itself. */
function serveDirectory(root: string): express.RequestHandler {
  const serveFile = express.static(root, {
    index: false,
    redirect: false,
    cacheControl: false,
    setHeaders: setCacheHeaders,
  });
  return (req, res, next) => {
    const filePath = isReadOnly(req) && PRECOMPRESSED.test(req.path) ? fileUnder(root, req.path) : null;
    if (!filePath) return serveFile(req, res, next);
    sendPrecompressed(req, res, next, filePath, cacheControlOf(filePath)).then(
      (sent) => {
        if (!sent) serveFile(req, res, next);
      },
      (error: unknown) => next(error),
    );
  };
}

/** remotes.json, and its compressed copies made once (it only changes with the configuration). */
function manifestResponses(manifest: RemotesManifest): { json: string } & Record<Coding, Buffer> {
  const json = JSON.stringify(manifest);
  return { json, br: brotliCompressSync(json), gzip: gzipSync(json, { level: 9 }) };
}

function isReadOnly(req: Request): boolean {
  return req.method === 'GET' || req.method === 'HEAD';
}

/**
 * frontendsRouter for the app: a request for the server's own paths (the API above all) passes by at once,
 * not through each of the router's layers to learn that none of them is its.
 */
export function frontends(config: Pick<AppConfig, 'frontendsDir' | 'remoteUrls'>): RequestHandler {
  const router = frontendsRouter(config);
  return (req, res, next) => (isServerPath(req.path) ? next() : router(req, res, next));
}

/**
 * The built frontends on the API's port: the shell at `/` (its index.html for every app path, so deep
 * links work), each remote at `/remotes/<name>/`, and `remotes.json`. `/api` and `/ws` pass through.
 */
export function frontendsRouter(config: Pick<AppConfig, 'frontendsDir' | 'remoteUrls'>): Router {
  // As the app's router: a path in the wrong letter case is not this one.
  const router = express.Router({ caseSensitive: true });
  const shellDist = path.join(config.frontendsDir, 'shell', 'dist');
  const shellIndex = path.join(shellDist, 'index.html');
  const serveShellFiles = serveDirectory(shellDist);

  const manifest = manifestResponses(remotesManifest(config));
  const appPages = new AppPages(config.frontendsDir, remotesManifest(config));
  router.get(REMOTES_MANIFEST_PATH, (req, res) => {
    res.setHeader('Cache-Control', NO_CACHE);
    res.vary('Accept-Encoding');
    res.type('json');
    const [coding] = acceptedCodings(req);
    if (!coding) return void res.send(manifest.json);
    res.setHeader('Content-Encoding', coding);
    res.send(manifest[coding]);
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
    isFile(shellIndex)
      .then(async (built) => {
        if (!built) {
          res
            .status(503)
            .setHeader('Cache-Control', 'no-store')
            .type('text/plain')
            .send(SHELL_NOT_BUILT_MESSAGE);
          return;
        }
        // index.html with remotes.json in it, and a visitor's landing page painted (first-paint.ts).
        await appPages.send(req, res, acceptedCodings(req)[0]);
      })
      .catch(next);
  });

  return router;
}
