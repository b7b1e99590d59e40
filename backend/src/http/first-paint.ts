import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { PAGES, type RemotesManifest } from '@termpaste/contracts';
import {
  escapeHtml,
  landingPageHtml,
  notFoundPageHtml,
  PAINT_DATA_ID,
  PAINT_ID,
  PAINT_QUERIES_ID,
  REMOTES_DATA_ID,
  scriptJson,
  VISITOR_PAGE_PATHS,
  type PaintData,
} from '@termpaste/contracts/first-paint';
import type { Request, Response } from 'express';
import { hasCookie } from '../common/cookies.js';
import { edgeCacheHeaders } from './edge-cache.js';
import { loopbackReader, memberPaintOf, paintMemberPage, type MemberPainted } from './member-paint.js';
import { SESSION_COOKIE } from '../modules/auth/session.middleware.js';

/** The shell's loader that starts the app once a painted page has shown (shell/public/). */
export const PAINT_BOOT = '/paint-boot.js';

/** The skip link's target, the landing page's `<main>` (@termpaste/ui's CONTENT_ID). */
const CONTENT_ID = 'content';

/**
 * Which app page a request gets: `landing` (a visitor's `/`) and `notFound` (any path of theirs but
 * the sign-in pages), painted, the same for every visitor; `visitor`, their sign-in pages (the app draws
 * them); `member`, a session cookie's: home and pastes painted with their data (member-paint.ts).
 */
export type AppPageKind = 'landing' | 'notFound' | 'visitor' | 'member';

/** A path as the app's router matches it: in any letter case, a trailing slash or not. */
const routed = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path).toLowerCase();

export function appPageKind(req: Request): AppPageKind {
  if (hasCookie(req, SESSION_COOKIE)) return 'member';
  const path = routed(req.path);
  if (path === PAGES.landing) return 'landing';
  // A visitor sees the landing and sign-in pages only: any other path is their 404 page, painted too.
  return VISITOR_PAGE_PATHS.includes(path) ? 'visitor' : 'notFound';
}

/** An app page ready to send: its bytes in each coding, made once per build of the shell. */
interface AppPage {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

/**
 * The scripts and styles the app is known to load first, fetched with the page instead of one after
 * another (index.js, then the shared libraries, then the forum's entry, then its screens): `shell`, the
 * shared libraries every page boots with; `forum`, the forum remote's screens (home, pastes).
 */
export interface FirstAssets {
  shell: { js: string[] };
  forum: { js: string[]; css: string[] };
}

export const NO_FIRST_ASSETS: FirstAssets = { shell: { js: [] }, forum: { js: [], css: [] } };

/** The part of a Module Federation mf-manifest.json read here. */
interface MfManifest {
  shared?: { name?: string; assets?: { js?: { sync?: string[] } } }[];
  exposes?: { path?: string; assets?: { js?: { sync?: string[] }; css?: { sync?: string[] } } }[];
}

async function readManifest(file: string): Promise<MfManifest | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as MfManifest;
  } catch {
    return null; // not built, or built without one: no hints, the app loads as it always did
  }
}

/**
 * The first assets, from the builds' mf-manifest.json: the shell's shared libraries, and the forum's
 * exposed screens when the forum is served from here (REMOTE_URLS may put it elsewhere).
 */
export async function firstAssets(frontendsDir: string, manifest: RemotesManifest): Promise<FirstAssets> {
  const shell = await readManifest(path.join(frontendsDir, 'shell', 'dist', 'mf-manifest.json'));
  const shellJs = (shell?.shared ?? [])
    // The contracts' files shared apart come with the first screen that reads them (frontends/mf-shared.ts),
    // not with every first visit: preloaded, they would be fetched on every one.
    .filter((one) => !one.name?.startsWith('@termpaste/contracts/'))
    .flatMap((one) => one.assets?.js?.sync ?? [])
    .map((file) => `/${file}`);
  const forumBase = '/remotes/forum/';
  const forum =
    manifest['forum'] === `${forumBase}remoteEntry.js`
      ? await readManifest(path.join(frontendsDir, 'forum', 'dist', 'mf-manifest.json'))
      : null;
  const screens = forum?.exposes?.find((one) => one.path === './screens')?.assets;
  return {
    shell: { js: [...new Set(shellJs)] },
    forum: {
      js: (screens?.js?.sync ?? []).map((file) => forumBase + file),
      css: (screens?.css?.sync ?? []).map((file) => forumBase + file),
    },
  };
}

const preload = (as: 'script' | 'style', href: string) =>
  `<link rel="preload" as="${as}" href="${escapeHtml(href)}" />`;

/** A `<link rel="preload">` list paint-boot.js adds once the painted page has shown. */
const bootPreloads = (hrefs: string[]) => escapeHtml(JSON.stringify(hrefs));

/**
 * The app's entry script, started by the shell's paint-boot.js once a painted page has shown: its scripts
 * do not share the line with the styles the painted page waits for. `preload`: fetched beside it then.
 */
function bootAfterPaint(html: string, preloads: string[] = []): string {
  return html.replace(
    /<script defer src="([^"]+)"><\/script>/,
    (_, entry: string) =>
      `<script defer src="${PAINT_BOOT}" data-entry="${entry}"` +
      (preloads.length > 0 ? ` data-preload="${bootPreloads(preloads)}"` : '') +
      `></script>`,
  );
}

/**
 * index.html with what a first visit needs put in: no request waits on another before the page shows.
 * `painted`: a member's first screen drawn by the server (member-paint.ts), for `member` pages.
 */
export function renderAppPage(
  index: string,
  kind: AppPageKind,
  manifest: RemotesManifest,
  assets: FirstAssets = NO_FIRST_ASSETS,
  painted: MemberPainted | null = null,
): string {
  const head = [`<script type="application/json" id="${REMOTES_DATA_ID}">${scriptJson(manifest)}</script>`];
  const forumEntry = manifest['forum'];
  const memberScripts =
    kind === 'member' && forumEntry ? [...assets.shell.js, forumEntry, ...assets.forum.js] : assets.shell.js;
  if (painted !== null) {
    // The painted screen needs the forum's styles to show; its scripts come once it has shown.
    head.push(...assets.forum.css.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}" />`));
  } else if (kind === 'member' || kind === 'visitor') {
    // Not on a painted page (landing, 404): its content needs the styles alone, and scripts fetched
    // beside them on a slow line would only make it show later.
    head.push(...memberScripts.map((href) => preload('script', href)));
    if (kind === 'member') head.push(...assets.forum.css.map((href) => preload('style', href)));
  }
  let html = index.replace('</head>', `${head.join('')}</head>`);
  if (kind === 'landing' || kind === 'notFound') {
    const page = kind === 'landing' ? landingPageHtml(CONTENT_ID) : notFoundPageHtml(CONTENT_ID);
    html = bootAfterPaint(html);
    html = html.replace('<div id="root">', `<div id="${PAINT_ID}">${page}</div><div id="root">`);
  }
  if (painted !== null) {
    html = bootAfterPaint(html, memberScripts);
    html = html.replace(
      '<div id="root">',
      `<div id="${PAINT_ID}">${painted.html}</div>` +
        `<script type="application/json" id="${PAINT_QUERIES_ID}">${scriptJson(painted.queries)}</script>` +
        `<div id="root">`,
    );
  }
  if (kind !== 'member') {
    // No session cookie, no member: the app need not ask the API (a 401 it would log) before it draws.
    const data: PaintData = { currentUser: null };
    html = html.replace(
      '<div id="root">',
      `<script type="application/json" id="${PAINT_DATA_ID}">${scriptJson(data)}</script><div id="root">`,
    );
  }
  return html;
}

/** `quality`: 11 for a page made once a build, a quick 5 for a member's painted page, made each time. */
function compressed(html: string, quality = 11): AppPage {
  const bytes = Buffer.from(html);
  return {
    html: bytes,
    br: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } }),
    gzip: gzipSync(bytes, { level: quality === 11 ? 9 : 6 }),
    etag: `"${createHash('sha1').update(bytes).digest('base64url')}"`,
  };
}

/**
 * The shell's index.html as each kind of request gets it, made (and compressed) once and again only when
 * the file changes (a new build).
 */
export class AppPages {
  private built: {
    mtimeMs: number;
    pages: Map<AppPageKind, AppPage>;
    assets: Promise<FirstAssets>;
    index: Promise<string>;
  } | null = null;

  constructor(
    private readonly frontendsDir: string,
    private readonly manifest: RemotesManifest,
  ) {}

  private get indexPath(): string {
    return path.join(this.frontendsDir, 'shell', 'dist', 'index.html');
  }

  private async current(): Promise<{ index: string; pages: Map<AppPageKind, AppPage>; assets: FirstAssets }> {
    const { mtimeMs } = await stat(this.indexPath);
    if (this.built?.mtimeMs !== mtimeMs) {
      this.built = {
        mtimeMs,
        pages: new Map(),
        assets: firstAssets(this.frontendsDir, this.manifest),
        index: readFile(this.indexPath, 'utf8'),
      };
    }
    const { pages, assets, index } = this.built;
    return { pages, assets: await assets, index: await index };
  }

  private async page(kind: AppPageKind): Promise<AppPage> {
    const { pages, assets, index } = await this.current();
    let page = pages.get(kind);
    if (!page) {
      page = compressed(renderAppPage(index, kind, this.manifest, assets));
      pages.set(kind, page);
    }
    return page;
  }

  /** A member's page with their first screen painted, or null when it has none (member-paint.ts). */
  private async memberPage(req: Request): Promise<AppPage | null> {
    const what = memberPaintOf(req.path);
    if (!what) return null;
    const painted = await paintMemberPage(what, loopbackReader(req));
    if (painted === null) return null;
    const { assets, index } = await this.current();
    return compressed(renderAppPage(index, 'member', this.manifest, assets, painted), 5);
  }

  /**
   * Sends the page for `req`: a browser asks each time (304 when it holds it), a cache in front may keep
   * a visitor's a few seconds (edgeCacheHeaders), varying with the cookie and the coding.
   */
  async send(req: Request, res: Response, coding: 'br' | 'gzip' | undefined): Promise<void> {
    const kind = appPageKind(req);
    // A member's painted page is theirs alone: edgeCacheHeaders makes it `private, no-cache`.
    const page = (kind === 'member' ? await this.memberPage(req) : null) ?? (await this.page(kind));
    // A visitor's page is the same for all: a cache in front may share it; a member's request never.
    edgeCacheHeaders(req, res);
    res.setHeader('ETag', page.etag);
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.type('html');
    const body = coding ? page[coding] : page.html;
    if (coding) res.setHeader('Content-Encoding', coding);
    res.setHeader('Content-Length', body.length);
    res.status(200).end(req.method === 'HEAD' ? undefined : body);
  }
}
