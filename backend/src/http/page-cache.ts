import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { isBearerRequest } from '../modules/auth/guards/bearer.js';
import { hasCookie } from '../common/cookies.js';
import { edgeCacheHeaders } from './edge-cache.js';
import { ReadDatabase } from '../infra/database/read-database.js';
import { announcePagesChanged, EventsPort, type PagesChanged } from '../infra/events/events.port.js';
import { Metrics } from '../infra/metrics/metrics.js';
import { signedInBySession } from '../modules/auth/session-user.js';
import { isFreshClientRead } from './fresh-reads.js';

/**
 * Set for a few seconds on every answer to a write (`Path=/api`): while a member carries it, their reads
 * skip the cache, so they see their own write even on an instance the invalidation has not reached yet.
 */
export const FRESH_COOKIE = 'termpaste.fresh';
export const FRESH_SECONDS = 10;

const FRESH_SET_COOKIE = `${FRESH_COOKIE}=1; Max-Age=${FRESH_SECONDS}; Path=/api; HttpOnly; SameSite=Lax`;

/**
 * Middleware for `/api`: FRESH_COOKIE on the answer to every write, so that the reads that follow skip
 * the page cache for a moment (read-your-writes across instances). Not for an access token's write: its
 * client keeps no cookie.
 */
export function freshAfterWrites(req: Request, res: Response, next: NextFunction): void {
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (!read && !isBearerRequest(req)) res.append('Set-Cookie', FRESH_SET_COOKIE);
  next();
}

/** Smaller bodies are sent as they are: gzip would save a few bytes for its cost. */
const GZIP_MIN_BYTES = 1024;
/** Changes remembered for the loads under way, at most (see PageCache.remember). */
const CHANGES_KEPT_MAX = 10_000;
/** Memory the cached lists and paste details may take (their bytes, gzip included), each. */
const LISTS_MAX_BYTES = 16 * 1024 * 1024;
const DETAILS_MAX_BYTES = 32 * 1024 * 1024;
/**
 * A page is dropped this long after it was made even if nothing said it changed: the safety net for a
 * change made where no events port reaches (the admin CLI) or that the bus lost.
 */
export const PAGE_TTL_MS = 60_000;

/**
 * How long a search page may show counters (scores, reply counts) older than the stored ones: a vote or a
 * reply does not drop it. Any other change (a paste posted, edited, hidden, deleted) drops it at once.
 */
export const SEARCH_COUNTS_TTL_MS = 10_000;

function isSearchKey(key: string): boolean {
  return key.startsWith('search:');
}

/** A JSON answer ready to send: its bytes, its ETag, and its gzip once a browser asked for it. */
export interface Page {
  json: Buffer;
  etag: string;
  gzip?: Buffer | null;
  /** The members a cached list shows (usersShown), to drop it when one of them changes. */
  users?: ReadonlySet<number>;
  /** When the first paste a cached list shows expires (epoch ms): the list is stale from then. */
  staleAt?: number;
}

/**
 * The members a page shows: the ids of the public authors in it (an object with a numeric `id` and a
 * `username`: a card's author and last replier, a reply's author, a profile's member). A profile save
 * drops the pages that show its member and no other.
 */
export function usersShown(value: unknown, into = new Set<number>()): Set<number> {
  if (Array.isArray(value)) {
    for (const item of value) usersShown(item, into);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record['id'] === 'number' && typeof record['username'] === 'string') into.add(record['id']);
    for (const field of Object.values(record)) {
      if (typeof field === 'object' && field !== null) usersShown(field, into);
    }
  }
  return into;
}

/** When the first paste (an object with an `expiresAt`) in a page expires, in epoch ms; Infinity: never. */
export function firstExpiry(value: unknown): number {
  let first = Infinity;
  const visit = (item: unknown): void => {
    if (Array.isArray(item)) {
      for (const one of item) visit(one);
    } else if (typeof item === 'object' && item !== null) {
      const expiresAt = (item as Record<string, unknown>)['expiresAt'];
      if (typeof expiresAt === 'string') first = Math.min(first, Date.parse(expiresAt));
      for (const field of Object.values(item)) if (typeof field === 'object' && field !== null) visit(field);
    }
  };
  visit(value);
  return first;
}

export function toPage(value: unknown): Page {
  const json = Buffer.from(JSON.stringify(value));
  return { json, etag: `"${createHash('sha1').update(json).digest('base64url')}"` };
}

/** The page's gzip (made once, kept with the page), or null when it is too small to be worth it. */
function gzipOf(page: Page): Buffer | null {
  page.gzip ??= page.json.length >= GZIP_MIN_BYTES ? gzipSync(page.json) : null;
  return page.gzip;
}

/**
 * Whether the request carries the fresh-read cookie (its member wrote a moment ago) with a valid
 * session (anyone can send the cookie: honoured for all, any visitor could skip the cache), or is an
 * access token's that wrote a moment ago (fresh-reads.ts). A fresh read skips the replicas too.
 */
export function wantsFresh(req: Request): boolean {
  return (hasCookie(req, FRESH_COOKIE) && signedInBySession(req)) || isFreshClientRead(req);
}

/**
 * Sends a JSON page: 304 when the browser holds it already (`If-None-Match`), gzip when it accepts it.
 * A browser keeps it but asks every time (a write shows at once); a visitor's may be shared by a cache in
 * front for a few seconds (edgeCacheHeaders); `personal`: made for one member, never shared.
 */
export function sendPage(req: Request, res: Response, page: Page, { personal = false } = {}): void {
  edgeCacheHeaders(req, res, { personal });
  res.setHeader('ETag', page.etag);
  // Express compares If-None-Match with the ETag just set (weakly, as for a GET).
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip' ? gzipOf(page) : null;
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  const body = gzip ?? page.json;
  res.setHeader('Content-Length', body.length);
  res.status(200).end(body);
}

/**
 * A cached page made of two halves around a value that moves with every read (a paste's view count):
 * `head` + the value + `tail` is the answer. `detail` is what it shows, `related` the other pages (by
 * id) whose change changes it.
 */
export interface CachedDetail {
  detail: unknown;
  related?: readonly number[];
  head: Buffer;
  tail: Buffer;
  etag: string;
}

/**
 * Public pages in memory with gzip and ETag, LRU-bounded, dropped by writes on every instance (a load older
 * than the change is not kept; misses share one load). A view flush drops nothing: the next reader reloads
 * the page, those meanwhile get it as it was (the flushing instance's view count lacks those views then).
 */
@Injectable()
export class PageCache implements OnModuleInit, OnModuleDestroy {
  private readonly lists = new LRUCache<string, Page>({
    maxSize: LISTS_MAX_BYTES,
    ttl: PAGE_TTL_MS,
    // The gzip comes later (at most about as big as the JSON): counted from the start.
    sizeCalculation: (page, key) => 2 * page.json.length + key.length,
    dispose: (_page, key) => this.staleLists.delete(key),
  });
  private readonly details = new LRUCache<number, CachedDetail>({
    maxSize: DETAILS_MAX_BYTES,
    ttl: PAGE_TTL_MS,
    // The parsed detail is kept too (a member's own votes are put into it): about three times its JSON.
    sizeCalculation: (page) => 4 * (page.head.length + page.tail.length),
    // Called for every way a page leaves (dropped, replaced, evicted, expired, cleared).
    dispose: (page, id) => {
      this.unrelate(id, page);
      this.staleDetails.delete(id);
    },
  });
  /** Cached pages that a counters-only change made stale: served while one reload of each runs. */
  private readonly staleLists = new Set<string>();
  private readonly staleDetails = new Set<number>();
  /** For each paste, the cached details that change with it (their CachedDetail.related). */
  private readonly relatedPages = new Map<number, Set<number>>();
  private readonly loading = new Map<string, Promise<unknown>>();
  /** Loads under way, those a change took out of `loading` included. */
  private running = 0;
  /**
   * Moves at every change. A load keeps its result to itself if a change since it started named its page
   * (changedSince): changes to other pages, many a second with many members, let it be kept.
   */
  private epoch = 0;
  private allChangedEpoch = 0;
  private listsChangedEpoch = 0;
  /** The epoch of the last change to each page key (`detail:7`, `list:profile:3`) and each member shown. */
  private readonly changedEpoch = new Map<string, number>();
  private readonly membersChangedEpoch = new Map<number, number>();
  /**
   * When the lists, all details, and each detail were last made stale (performance.now()): a miss is
   * loaded from a read replica only if it has replayed what the primary had then (ReadDatabase.read),
   * else from the primary, so that no page older than its invalidation is kept.
   */
  private listsChangedAt = -Infinity;
  private detailsChangedAt = -Infinity;
  private readonly detailChangedAt = new Map<number, number>();
  private readonly logger = new Logger('PageCache');
  private readonly unsubscribe: Array<() => void> = [];

  /** termpaste_page_cache_requests_total's children, made once (a read costs an increment). */
  private readonly counted;

  constructor(
    private readonly events: EventsPort,
    metrics: Metrics,
    @Optional() private readonly reads?: ReadDatabase,
  ) {
    const count = (page: string, result: string) => metrics.pageCache.labels(page, result);
    this.counted = {
      list: { hit: count('list', 'hit'), miss: count('list', 'miss'), bypass: count('list', 'bypass') },
      detail: {
        hit: count('detail', 'hit'),
        miss: count('detail', 'miss'),
        bypass: count('detail', 'bypass'),
      },
    };
  }

  onModuleInit(): void {
    this.unsubscribe.push(
      this.events.onBroadcast((event) => {
        if (event.type === 'pages_changed') this.drop(event);
      }),
    );
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /** A list page (`key` names it and its parameters), from the cache or `load`ed and kept. */
  list(key: string, load: () => Promise<unknown>, fresh: boolean): Promise<Page> {
    if (fresh) {
      this.counted.list.bypass.inc();
      return load().then(toPage);
    }
    const cached = this.lists.get(key);
    // A paste it shows has expired since: read again (the lists read only pastes alive now).
    if (cached && (cached.staleAt ?? Infinity) <= Date.now()) this.lists.delete(key);
    else if (cached) {
      // Stale: the first reader reloads it; those who come while that runs get this page.
      if (this.staleLists.has(key) && !this.loading.has(`list:${key}`)) {
        this.counted.list.miss.inc();
        return this.reload(this.loadList(key, load), cached);
      }
      this.counted.list.hit.inc();
      return Promise.resolve(cached);
    }
    this.counted.list.miss.inc();
    return this.loadList(key, load);
  }

  private loadList(key: string, load: () => Promise<unknown>): Promise<Page> {
    return this.share(
      `list:${key}`,
      async () => {
        const value = await this.loadFromReplica(load, this.listsChangedAt);
        return { ...toPage(value), users: usersShown(value), staleAt: firstExpiry(value) };
      },
      // Replacing the page disposes of the one before (and of its staleness).
      (page) => this.lists.set(key, page, isSearchKey(key) ? { ttl: SEARCH_COUNTS_TTL_MS } : undefined),
    );
  }

  /** A stale page's reload; if it fails, the stale page (kept, and reloaded at the next read). */
  private reload<T>(reload: Promise<T>, stale: T): Promise<T> {
    return reload.catch((error: unknown) => {
      this.logger.warn(`Reloading a page failed: ${error instanceof Error ? error.message : String(error)}`);
      return stale;
    });
  }

  /** A paste's page as every visitor sees it, from the cache or `load`ed and kept. */
  detail<P extends CachedDetail>(id: number, load: () => Promise<P>, fresh: boolean): Promise<P> {
    if (fresh) {
      this.counted.detail.bypass.inc();
      return load();
    }
    // Each id's page is made by one `load`: what it kept is a P.
    const cached = this.details.get(id) as P | undefined;
    if (cached) {
      if (this.staleDetails.has(id) && !this.loading.has(`detail:${id}`)) {
        this.counted.detail.miss.inc();
        return this.reload(this.loadDetail(id, load), cached);
      }
      this.counted.detail.hit.inc();
      return Promise.resolve(cached);
    }
    this.counted.detail.miss.inc();
    return this.loadDetail(id, load);
  }

  private loadDetail<P extends CachedDetail>(id: number, load: () => Promise<P>): Promise<P> {
    const since = Math.max(this.detailsChangedAt, this.detailChangedAt.get(id) ?? -Infinity);
    return this.share(
      `detail:${id}`,
      () => this.loadFromReplica(load, since),
      (page) => {
        // Replacing the page disposes of the one before (its relations, its staleness).
        this.details.set(id, page);
        for (const other of page.related ?? []) {
          const pages = this.relatedPages.get(other) ?? new Set<number>();
          this.relatedPages.set(other, pages.add(id));
        }
      },
    );
  }

  /** Drops what `change` made stale, here at once and on every other instance soon after. */
  changed(change: Omit<PagesChanged, 'type'>): Promise<void> {
    return announcePagesChanged(this.events, change, this.logger);
  }

  /** A miss's load, on a read replica that has replayed past `since` or on the primary. */
  private loadFromReplica<T>(load: () => Promise<T>, since: number): Promise<T> {
    return this.reads?.enabled ? this.reads.read(load, { since }) : load();
  }

  /** Notes when `change` made the lists or every detail stale (loadFromReplica); drop notes each detail. */
  private noteChange(change: PagesChanged): void {
    const now = performance.now();
    if (change.all || change.lists || change.profiles?.length || change.members?.length) {
      this.listsChangedAt = now;
    }
    if (change.all || change.members?.length) this.detailsChangedAt = now;
    if (this.detailChangedAt.size > 10_000) {
      // Forgotten one by one, they move the all-details mark: never a replica older than one of them.
      for (const [id, at] of this.detailChangedAt) {
        if (at >= now - PAGE_TTL_MS) continue;
        this.detailsChangedAt = Math.max(this.detailsChangedAt, at);
        this.detailChangedAt.delete(id);
      }
    }
  }

  private drop(change: PagesChanged): void {
    const epoch = ++this.epoch;
    this.remember(change, epoch);
    this.noteChange(change);
    const now = performance.now();
    if (change.countsOnly && !change.all) {
      // Search pages keep their counters for SEARCH_COUNTS_TTL_MS at most: a common word's search is the
      // dearest page to make, and every vote would otherwise have it made again.
      if (change.lists) {
        for (const key of this.lists.keys()) if (!isSearchKey(key)) this.staleLists.add(key);
      }
      for (const id of change.profiles ?? []) {
        if (this.lists.has(`profile:${id}`)) this.staleLists.add(`profile:${id}`);
      }
      for (const id of change.threads ?? []) {
        this.detailChangedAt.set(id, now);
        if (this.details.has(id)) this.staleDetails.add(id);
      }
      return;
    }
    if (change.all || change.lists) {
      // A reply leaves what a search finds as it was: its pages keep their counters a little while.
      const keep = !change.all && change.searchKept ? isSearchKey : () => false;
      for (const key of [...this.lists.keys()]) if (!keep(key)) this.lists.delete(key);
      for (const key of this.loading.keys()) {
        if (key.startsWith('list:') && !keep(key.slice('list:'.length))) this.loading.delete(key);
      }
    }
    if (change.all) {
      this.details.clear();
      for (const key of this.loading.keys()) if (key.startsWith('detail:')) this.loading.delete(key);
    }
    // A paste's change changes the pages related to it too: a fork's original (its fork count), a paste's
    // forks (the title or the existence of what they were forked from).
    const threads = (change.threads ?? []).flatMap((id) => [id, ...(this.relatedPages.get(id) ?? [])]);
    for (const id of threads) {
      this.detailChangedAt.set(id, now);
      this.details.delete(id);
      this.loading.delete(`detail:${id}`);
    }
    for (const id of change.profiles ?? []) {
      this.lists.delete(`profile:${id}`);
      this.loading.delete(`list:profile:${id}`);
    }
    if (change.members?.length) this.dropShowing(new Set(change.members));
  }

  private unrelate(id: number, page: CachedDetail): void {
    for (const other of page.related ?? []) {
      const pages = this.relatedPages.get(other);
      pages?.delete(id);
      if (pages?.size === 0) this.relatedPages.delete(other);
    }
  }

  /** Drops the lists and details that show any of `users` (loads under way: see changedSince). */
  private dropShowing(users: ReadonlySet<number>): void {
    const shows = (shown: Iterable<number>) => [...shown].some((id) => users.has(id));
    const lists = [...this.lists.entries()].filter(([, page]) => shows(page.users ?? []));
    for (const [key] of lists) this.lists.delete(key);
    // A detail's members are read from it only now: a profile save is rare, a detail's load is not.
    const details = [...this.details.entries()].filter(([, page]) => shows(usersShown(page.detail)));
    for (const [id] of details) this.details.delete(id);
  }

  /** Notes which pages `change` names, for the loads under way (see changedSince). */
  private remember(change: PagesChanged, epoch: number): void {
    if (change.all) this.allChangedEpoch = epoch;
    if (change.lists) this.listsChangedEpoch = epoch;
    for (const id of change.threads ?? []) this.changedEpoch.set(`detail:${id}`, epoch);
    for (const id of change.profiles ?? []) this.changedEpoch.set(`list:profile:${id}`, epoch);
    for (const id of change.members ?? []) this.membersChangedEpoch.set(id, epoch);
    // Bounded: past this many, every load under way counts as overtaken (it reloads at the next read).
    if (this.changedEpoch.size + this.membersChangedEpoch.size > CHANGES_KEPT_MAX) {
      this.allChangedEpoch = epoch;
      this.changedEpoch.clear();
      this.membersChangedEpoch.clear();
    }
  }

  /** Whether a change since `start` named the page `key` loaded as `value` (or a page or member it shows). */
  private changedSince(key: string, start: number, value: unknown): boolean {
    if (this.allChangedEpoch > start) return true;
    if (key.startsWith('list:') && this.listsChangedEpoch > start) return true;
    if ((this.changedEpoch.get(key) ?? 0) > start) return true;
    const detail = key.startsWith('detail:') ? (value as CachedDetail) : undefined;
    // A change of a paste it is related to (its original, its forks) drops it too.
    for (const id of detail?.related ?? [])
      if ((this.changedEpoch.get(`detail:${id}`) ?? 0) > start) return true;
    const members = [...this.membersChangedEpoch].filter(([, at]) => at > start).map(([id]) => id);
    if (members.length === 0) return false;
    const shown = detail ? usersShown(detail.detail) : ((value as Page).users ?? new Set<number>());
    return members.some((id) => shown.has(id));
  }

  /** One load per key at a time; its result is kept unless a change named its page while it ran. */
  private share<T>(key: string, load: () => Promise<T>, keep: (value: T) => void): Promise<T> {
    const running = this.loading.get(key) as Promise<T> | undefined;
    if (running) return running;
    const start = this.epoch;
    this.running++;
    const settle = () => {
      if (this.loading.get(key) === promise) this.loading.delete(key);
      // No load under way (a dropped one included) needs to know of changes made before now.
      if (--this.running === 0) {
        this.changedEpoch.clear();
        this.membersChangedEpoch.clear();
      }
    };
    let loaded: Promise<T>;
    try {
      loaded = load();
    } catch (error) {
      loaded = Promise.reject(error as Error);
    }
    const promise = loaded.then(
      (value) => {
        const overtaken = this.changedSince(key, start, value);
        settle();
        if (!overtaken) keep(value);
        return value;
      },
      (error: unknown) => {
        settle();
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }
}
