import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ThreadDetail } from '@termpaste/contracts';
import { LRUCache } from 'lru-cache';
import { hasCookie } from '../../common/cookies.js';
import { signedInBySession } from '../auth/session-user.js';
import { announcePagesChanged, EventsPort, type PagesChanged } from '../../infra/events/events.port.js';
import { ViewCounter } from './view-counter.js';
import type { ForkOriginal } from './forum.service.js';

/**
 * Set for a few seconds on every answer to a write (`Path=/api`): while a member carries it, their reads
 * skip the cache, so they see their own write even on an instance the invalidation has not reached yet.
 */
export const FRESH_COOKIE = 'termpaste.fresh';
export const FRESH_SECONDS = 10;

/** Smaller bodies are sent as they are: gzip would save a few bytes for its cost. */
const GZIP_MIN_BYTES = 1024;
/** Memory the cached lists and paste details may take (their bytes, gzip included), each. */
const LISTS_MAX_BYTES = 16 * 1024 * 1024;
const DETAILS_MAX_BYTES = 32 * 1024 * 1024;
/**
 * A page is dropped this long after it was made even if nothing said it changed: the safety net for a
 * change made where no events port reaches (the admin CLI) or that the bus lost.
 */
export const PAGE_TTL_MS = 60_000;

/** A JSON answer ready to send: its bytes, its ETag, and its gzip once a browser asked for it. */
export interface Page {
  json: Buffer;
  etag: string;
  gzip?: Buffer | null;
  /** The members a cached list shows (membersShown), to drop it when one of them changes. */
  members?: ReadonlySet<number>;
  /** When the first paste a cached list shows expires (epoch ms): the list is stale from then. */
  staleAt?: number;
}

/**
 * The members a page shows: the ids of the public authors in it (an object with a numeric `id` and a
 * `username`: a card's author and last replier, a reply's author, a profile's member). A profile save
 * drops the pages that show its member and no other.
 */
export function membersShown(value: unknown, into = new Set<number>()): Set<number> {
  if (Array.isArray(value)) {
    for (const item of value) membersShown(item, into);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record['id'] === 'number' && typeof record['username'] === 'string') into.add(record['id']);
    for (const field of Object.values(record)) {
      if (typeof field === 'object' && field !== null) membersShown(field, into);
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
 * session: anyone can send the cookie, and honouring it for them would let any visitor make every read
 * of theirs skip the cache.
 */
export function wantsFresh(req: Request): boolean {
  return hasCookie(req, FRESH_COOKIE) && signedInBySession(req);
}

/**
 * Sends a JSON page: 304 when the browser holds it already (`If-None-Match`), gzip when it accepts it.
 * `no-cache`: a browser may keep it but asks every time (a write shows at once); `private` for an answer
 * made for one member.
 */
export function sendPage(req: Request, res: Response, page: Page, { personal = false } = {}): void {
  res.setHeader('Cache-Control', personal ? 'private, no-cache' : 'no-cache');
  res.setHeader('Vary', 'Accept-Encoding, Cookie');
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

/** Stands for the view count in a cached detail: above any int4 count, so it is never a real one. */
const VIEWS_MARK = 2 ** 31;
const VIEWS_KEY = '"viewCount":';

/**
 * A paste's detail as every visitor sees it, serialized around its view count (which moves with every
 * read): `head` + the count + `tail` is the answer. Its ETag leaves the count out (weak: the same paste
 * with a few more views is the same page to a browser that has it).
 */
export interface DetailPage {
  detail: ThreadDetail;
  storedViews: number;
  /** A fork's original while alive, which its own author may see named where others may not. */
  original?: ForkOriginal | null;
  /**
   * The pastes whose change changes this page though it names none of them by a write of its own: its
   * original (its title, or that it is gone) and its forks (their count), whatever their visibility.
   */
  related?: readonly number[];
  head: Buffer;
  tail: Buffer;
  etag: string;
}

export function toDetailPage(detail: ThreadDetail, storedViews: number): DetailPage {
  const json = JSON.stringify({ ...detail, viewCount: VIEWS_MARK });
  // The first match is the paste's own key: inside a string value the quotes would be escaped.
  const at = json.indexOf(`${VIEWS_KEY}${VIEWS_MARK}`) + VIEWS_KEY.length;
  const head = Buffer.from(json.slice(0, at));
  const tail = Buffer.from(json.slice(at + String(VIEWS_MARK).length));
  const etag = `W/"${createHash('sha1').update(head).update(tail).digest('base64url')}"`;
  return { detail, storedViews, head, tail, etag };
}

/**
 * Sends a paste's detail with `views` as its view count. `votes`: the member's own votes, when they have
 * any on it (the answer is then theirs alone); without, a member gets the visitors' page.
 */
export function sendDetail(
  req: Request,
  res: Response,
  page: DetailPage,
  views: number,
  {
    personal = false,
    votes,
  }: { personal?: boolean; votes?: { thread: 1 | -1 | null; replies: Map<number, 1 | -1> } } = {},
): void {
  if (votes && (votes.thread !== null || votes.replies.size > 0)) {
    const mine: ThreadDetail = {
      ...page.detail,
      viewCount: views,
      myVote: votes.thread,
      replies: page.detail.replies.map((reply) => {
        const myVote = votes.replies.get(reply.id);
        return myVote === undefined ? reply : { ...reply, myVote };
      }),
    };
    sendPage(req, res, toPage(mine), { personal: true });
    return;
  }
  const json = Buffer.concat([page.head, Buffer.from(String(views)), page.tail]);
  sendPage(req, res, { json, etag: page.etag }, { personal });
}

/**
 * The public pages every visitor reads (home, featured, search, profiles, pastes), serialized in memory
 * with gzip and ETag, LRU-bounded. Writes drop them on every instance. A load that started before a
 * change is not kept (it may have read before the write committed); concurrent misses share one load.
 */
@Injectable()
export class PageCache implements OnModuleInit, OnModuleDestroy {
  private readonly lists = new LRUCache<string, Page>({
    maxSize: LISTS_MAX_BYTES,
    ttl: PAGE_TTL_MS,
    // The gzip comes later (at most about as big as the JSON): counted from the start.
    sizeCalculation: (page, key) => 2 * page.json.length + key.length,
  });
  private readonly details = new LRUCache<number, DetailPage>({
    maxSize: DETAILS_MAX_BYTES,
    ttl: PAGE_TTL_MS,
    // The parsed detail is kept too (a member's own votes are put into it): about three times its JSON.
    sizeCalculation: (page) => 4 * (page.head.length + page.tail.length),
    // Called for every way a page leaves (dropped, replaced, evicted, expired, cleared).
    dispose: (page, id) => this.unrelate(id, page),
  });
  /** For each paste, the cached details that change with it (their DetailPage.related). */
  private readonly relatedPages = new Map<number, Set<number>>();
  private readonly loading = new Map<string, Promise<unknown>>();
  /** Moves at every change: a load that saw it move keeps its result to itself. */
  private epoch = 0;
  private readonly logger = new Logger('PageCache');
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly events: EventsPort,
    private readonly views: ViewCounter,
  ) {}

  onModuleInit(): void {
    this.unsubscribe.push(
      this.events.onBroadcast((event) => {
        if (event.type === 'pages_changed') this.drop(event);
      }),
    );
    // Stored view counts moved: the cards and details that show them (on every instance).
    const flushed = this.views.flushed$.subscribe((threads) => {
      void this.changed({ lists: true, threads });
    });
    this.unsubscribe.push(() => flushed.unsubscribe());
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /** A list page (`key` names it and its parameters), from the cache or `load`ed and kept. */
  list(key: string, load: () => Promise<unknown>, fresh: boolean): Promise<Page> {
    if (fresh) return load().then(toPage);
    const cached = this.lists.get(key);
    // A paste it shows has expired since: read again (the lists read only pastes alive now).
    if (cached && (cached.staleAt ?? Infinity) <= Date.now()) this.lists.delete(key);
    else if (cached) return Promise.resolve(cached);
    return this.share(
      `list:${key}`,
      async () => {
        const value = await load();
        return { ...toPage(value), members: membersShown(value), staleAt: firstExpiry(value) };
      },
      (page) => this.lists.set(key, page),
    );
  }

  /** A paste's page as every visitor sees it, from the cache or `load`ed and kept. */
  detail(id: number, load: () => Promise<DetailPage>, fresh: boolean): Promise<DetailPage> {
    if (fresh) return load();
    const cached = this.details.get(id);
    if (cached) return Promise.resolve(cached);
    return this.share(`detail:${id}`, load, (page) => {
      this.details.set(id, page);
      for (const other of page.related ?? []) {
        const pages = this.relatedPages.get(other) ?? new Set<number>();
        this.relatedPages.set(other, pages.add(id));
      }
    });
  }

  /** Drops what `change` made stale, here at once and on every other instance soon after. */
  changed(change: Omit<PagesChanged, 'type'>): Promise<void> {
    return announcePagesChanged(this.events, change, this.logger);
  }

  private drop(change: PagesChanged): void {
    this.epoch++;
    if (change.all || change.lists) {
      this.lists.clear();
      for (const key of this.loading.keys()) if (key.startsWith('list:')) this.loading.delete(key);
    }
    if (change.all) {
      this.details.clear();
      for (const key of this.loading.keys()) if (key.startsWith('detail:')) this.loading.delete(key);
    }
    // A paste's change changes the pages related to it too: a fork's original (its fork count), a paste's
    // forks (the title or the existence of what they were forked from).
    const threads = (change.threads ?? []).flatMap((id) => [id, ...(this.relatedPages.get(id) ?? [])]);
    for (const id of threads) {
      this.details.delete(id);
      this.loading.delete(`detail:${id}`);
    }
    for (const id of change.profiles ?? []) {
      this.lists.delete(`profile:${id}`);
      this.loading.delete(`list:profile:${id}`);
    }
    if (change.members?.length) this.dropShowing(new Set(change.members));
  }

  private unrelate(id: number, page: DetailPage): void {
    for (const other of page.related ?? []) {
      const pages = this.relatedPages.get(other);
      pages?.delete(id);
      if (pages?.size === 0) this.relatedPages.delete(other);
    }
  }

  /** Drops the lists and details that show any of `members` (loads under way: the epoch moved). */
  private dropShowing(members: ReadonlySet<number>): void {
    const shows = (shown: Iterable<number>) => [...shown].some((id) => members.has(id));
    const lists = [...this.lists.entries()].filter(([, page]) => shows(page.members ?? []));
    for (const [key] of lists) this.lists.delete(key);
    // A detail's members are read from it only now: a profile save is rare, a detail's load is not.
    const details = [...this.details.entries()].filter(([, page]) => shows(membersShown(page.detail)));
    for (const [id] of details) this.details.delete(id);
  }

  /** One load per key at a time; its result is kept only if nothing changed while it ran. */
  private share<T>(key: string, load: () => Promise<T>, keep: (value: T) => void): Promise<T> {
    const running = this.loading.get(key) as Promise<T> | undefined;
    if (running) return running;
    const epoch = this.epoch;
    const promise = load().then(
      (value) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        if (this.epoch === epoch) keep(value);
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }
}
