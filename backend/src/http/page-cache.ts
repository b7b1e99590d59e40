import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { isBearerRequest } from '../modules/auth/guards/bearer.js';
import { hasCookie } from '../common/cookies.js';
import { edgeCacheHeaders } from './edge-cache.js';
import { ReadDatabase } from '../infra/database/read-database.js';
import {
  announcePagesChanged,
  EventsPort,
  type PagesChanged,
  type ScoreMoved,
} from '../infra/events/events.port.js';
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

/** Whether the list `key` is one that `pattern` names: that key, or a prefix ending in `*`. */
export function listNamed(key: string, pattern: string): boolean {
  return pattern.endsWith('*') ? key.startsWith(pattern.slice(0, -1)) : key === pattern;
}

/** Whether any of the pastes `ids` (new ones) would be on a list page: it changes only if one would. */
export type OwnsPastes = (ids: readonly number[]) => Promise<boolean>;

/** A JSON answer ready to send: its bytes, its ETag, and its gzip once a browser asked for it. */
export interface Page {
  json: Buffer;
  etag: string;
  gzip?: Buffer | null;
  /** The members a cached list shows (usersShown), to drop it when one of them changes. */
  users?: ReadonlySet<number>;
  /** The pastes whose cards a cached list shows (cardsShown), to patch or reload it when they move. */
  cards?: ReadonlySet<number>;
  /** What a cached list was made from, to put a moved score into it (PageCache.patchScore). */
  value?: unknown;
  /** Whether any of these new pastes belongs on the page (a search's): see PageCache.list's `owns`. */
  owns?: OwnsPastes;
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

/**
 * The pastes whose cards a page shows: the ids of the objects with a numeric `id` and a `replyCount` (a
 * card's counters), so that a vote or a reply reloads or patches only the lists that show its paste.
 */
export function cardsShown(value: unknown, into = new Set<number>()): Set<number> {
  if (Array.isArray(value)) {
    for (const item of value) cardsShown(item, into);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record['id'] === 'number' && typeof record['replyCount'] === 'number') into.add(record['id']);
    for (const field of Object.values(record)) {
      if (typeof field === 'object' && field !== null) cardsShown(field, into);
    }
  }
  return into;
}

/**
 * Puts `score` into what a page was made from: a paste's into its cards and its page (objects with its
 * `id`, a `voteScore` and a `replyCount`), a reply's into its paste's `replies`. Whether anything moved.
 */
function putScore(value: unknown, score: ScoreMoved, inReplies = false): boolean {
  let moved = false;
  if (Array.isArray(value)) {
    for (const item of value) moved = putScore(item, score, inReplies) || moved;
    return moved;
  }
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const isTarget = inReplies
    ? score.replyId !== null && record['id'] === score.replyId
    : score.replyId === null && record['id'] === score.threadId && typeof record['replyCount'] === 'number';
  if (isTarget && typeof record['voteScore'] === 'number' && record['voteScore'] !== score.voteScore) {
    record['voteScore'] = score.voteScore;
    moved = true;
  }
  const replies = (record as { replies?: unknown }).replies;
  for (const field of Object.values(record)) {
    if (typeof field !== 'object' || field === null) continue;
    // Reply ids are not paste ids: only the replies of the vote's own paste are looked into.
    const isReplies = field === replies;
    if (isReplies && !inReplies && record['id'] !== score.threadId) continue;
    moved = putScore(field, score, inReplies || isReplies) || moved;
  }
  return moved;
}

/** Stands for the view count in a cached detail: above any int4 count, so it is never a real one. */
const VIEWS_MARK = 2 ** 31;
const VIEWS_KEY = '"viewCount":';

/**
 * A paste's page serialized around its view count: `head` + the count + `tail` (see CachedDetail). Its
 * ETag leaves the count out (weak: the same paste with a few more views is the same page to a browser).
 */
export function splitAroundViews(detail: object): Pick<CachedDetail, 'head' | 'tail' | 'etag'> {
  const json = JSON.stringify({ ...detail, viewCount: VIEWS_MARK });
  // The first match is the paste's own key: inside a string value the quotes would be escaped.
  const at = json.indexOf(`${VIEWS_KEY}${VIEWS_MARK}`) + VIEWS_KEY.length;
  const head = Buffer.from(json.slice(0, at));
  const tail = Buffer.from(json.slice(at + String(VIEWS_MARK).length));
  const etag = `W/"${createHash('sha1').update(head).update(tail).digest('base64url')}"`;
  return { head, tail, etag };
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
    // The gzip comes later (at most about as big as the JSON), and the parsed value is kept (about twice
    // its JSON): counted from the start.
    sizeCalculation: (page, key) => 4 * page.json.length + key.length,
    dispose: (_page, key) => {
      this.staleLists.delete(key);
      this.posted.delete(key);
    },
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
  /** For each cached list that can tell (Page.owns), the new pastes it has not been asked about yet. */
  private readonly posted = new Map<string, Set<number>>();
  private readonly checks = new Map<string, Promise<boolean>>();
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
  /** The last change that posted a paste: a load under way of a page that can tell is not kept. */
  private postedEpoch = 0;
  private listsChangedEpoch = 0;
  /** The epoch of the last change to each page key (`detail:7`, `list:profile:3`) and each member shown. */
  private readonly changedEpoch = new Map<string, number>();
  private readonly membersChangedEpoch = new Map<number, number>();
  /** The same for each paste whose cards moved, and each list pattern a change named (listNamed). */
  private readonly cardsChangedEpoch = new Map<number, number>();
  private readonly listPagesChangedEpoch = new Map<string, number>();
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

  /**
   * A list page (`key` names it and its parameters), from the cache or `load`ed and kept. `owns`: whether
   * new pastes belong on it (a search's); with it, a new paste changes the page only if it does.
   */
  list(key: string, load: () => Promise<unknown>, fresh: boolean, owns?: OwnsPastes): Promise<Page> {
    if (fresh) {
      this.counted.list.bypass.inc();
      return load().then(toPage);
    }
    if (this.posted.has(key)) return this.checkPosted(key, load, owns);
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
    return this.loadList(key, load, owns);
  }

  /**
   * A cached page new pastes were posted since: kept if none of them belongs on it (one check, shared by
   * the readers meanwhile), else made again.
   */
  private checkPosted(key: string, load: () => Promise<unknown>, owns?: OwnsPastes): Promise<Page> {
    let checking = this.checks.get(key);
    if (!checking) {
      const ids = [...(this.posted.get(key) ?? [])];
      const page = this.lists.get(key);
      const check = page?.owns ?? (() => Promise.resolve(true));
      checking = check(ids)
        .catch(() => true)
        .then((changed) => {
          if (this.checks.get(key) === checking) this.checks.delete(key);
          const still = this.posted.get(key);
          // Pastes posted while the check ran are checked at the next read.
          for (const id of ids) still?.delete(id);
          if (still?.size === 0) this.posted.delete(key);
          if (changed) this.lists.delete(key);
          return changed;
        });
      this.checks.set(key, checking);
    }
    // Kept: served from the cache; changed: dropped above, so loaded again.
    return checking.then(() => this.list(key, load, false, owns));
  }

  private loadList(key: string, load: () => Promise<unknown>, owns?: OwnsPastes): Promise<Page> {
    return this.share(
      `list:${key}`,
      async () => {
        const value = await this.loadFromReplica(load, this.listsChangedAt);
        const shown = { users: usersShown(value), cards: cardsShown(value) };
        return { ...toPage(value), ...shown, value, owns, staleAt: firstExpiry(value) };
      },
      // Replacing the page disposes of the one before (and of its staleness).
      (page) => this.lists.set(key, page),
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
    const cardsMoved = change.cards?.length || change.scores?.some((score) => score.replyId === null);
    if (
      change.all ||
      change.lists ||
      change.profiles?.length ||
      change.members?.length ||
      change.listPages?.length ||
      cardsMoved
    ) {
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
    for (const score of change.scores ?? []) this.patchScore(score, now);
    // A reply moves its paste's counters: the lists that show its card reload once, served meanwhile.
    if (change.cards?.length) {
      const cards = new Set(change.cards);
      for (const [key, page] of this.lists.entries()) {
        if ([...(page.cards ?? [])].some((id) => cards.has(id))) this.staleLists.add(key);
      }
    }
    for (const pattern of change.listPages ?? []) this.dropLists((key) => listNamed(key, pattern));
    if (change.posted?.length) {
      for (const [key, page] of this.lists.entries()) {
        if (!page.owns) continue;
        const ids = this.posted.get(key) ?? new Set<number>();
        for (const id of change.posted) ids.add(id);
        this.posted.set(key, ids);
      }
    }
    if (change.countsOnly && !change.all) {
      if (change.lists) for (const key of this.lists.keys()) this.staleLists.add(key);
      for (const id of change.profiles ?? []) {
        if (this.lists.has(`profile:${id}`)) this.staleLists.add(`profile:${id}`);
      }
      for (const id of change.threads ?? []) {
        this.detailChangedAt.set(id, now);
        if (this.details.has(id)) this.staleDetails.add(id);
      }
      return;
    }
    if (change.all || change.lists) this.dropLists(() => true);
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

  /** Drops the lists whose key is `named`, and forgets their loads under way. */
  private dropLists(named: (key: string) => boolean): void {
    for (const key of [...this.lists.keys()]) if (named(key)) this.lists.delete(key);
    for (const key of this.loading.keys()) {
      if (key.startsWith('list:') && named(key.slice('list:'.length))) this.loading.delete(key);
    }
  }

  /**
   * Puts a vote's score into the cached pages that show it, in place: its paste's page, and the cards of
   * that paste in the lists (a 200-reply page is not made again for one number). Their ETags move.
   */
  private patchScore(score: ScoreMoved, now: number): void {
    this.detailChangedAt.set(score.threadId, now);
    const detail = this.details.peek(score.threadId);
    if (detail && putScore(detail.detail, score)) {
      Object.assign(detail, splitAroundViews(detail.detail as object));
    }
    if (score.replyId !== null) return;
    for (const page of this.lists.values()) {
      if (!page.cards?.has(score.threadId) || !putScore(page.value, score)) continue;
      const patched = toPage(page.value);
      page.json = patched.json;
      page.etag = patched.etag;
      page.gzip = undefined;
    }
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
    for (const id of change.cards ?? []) this.cardsChangedEpoch.set(id, epoch);
    for (const pattern of change.listPages ?? []) this.listPagesChangedEpoch.set(pattern, epoch);
    if (change.posted?.length) this.postedEpoch = epoch;
    for (const score of change.scores ?? []) {
      // A load under way may have read the score before the vote: not kept.
      this.changedEpoch.set(`detail:${score.threadId}`, epoch);
      if (score.replyId === null) this.cardsChangedEpoch.set(score.threadId, epoch);
    }
    // Bounded: past this many, every load under way counts as overtaken (it reloads at the next read).
    const kept =
      this.changedEpoch.size +
      this.membersChangedEpoch.size +
      this.cardsChangedEpoch.size +
      this.listPagesChangedEpoch.size;
    if (kept > CHANGES_KEPT_MAX) {
      this.allChangedEpoch = epoch;
      this.forgetChanges();
    }
  }

  private forgetChanges(): void {
    this.changedEpoch.clear();
    this.membersChangedEpoch.clear();
    this.cardsChangedEpoch.clear();
    this.listPagesChangedEpoch.clear();
  }

  /** Whether a change since `start` named the page `key` loaded as `value` (or a page or member it shows). */
  private changedSince(key: string, start: number, value: unknown): boolean {
    if (this.allChangedEpoch > start) return true;
    if (key.startsWith('list:') && this.listsChangedEpoch > start) return true;
    if ((this.changedEpoch.get(key) ?? 0) > start) return true;
    if (key.startsWith('list:')) {
      const listKey = key.slice('list:'.length);
      for (const [pattern, at] of this.listPagesChangedEpoch) {
        if (at > start && listNamed(listKey, pattern)) return true;
      }
      if ((value as Page).owns && this.postedEpoch > start) return true;
      for (const id of (value as Page).cards ?? []) {
        if ((this.cardsChangedEpoch.get(id) ?? 0) > start) return true;
      }
    }
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
      if (--this.running === 0) this.forgetChanges();
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
