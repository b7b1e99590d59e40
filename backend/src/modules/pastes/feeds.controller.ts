import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Controller, Get, NotFoundException, Param, Query, Req, Res } from '@nestjs/common';
import {
  FEED_MESSAGES,
  FEED_TYPE,
  FEEDS,
  PAGES,
  type SearchQuery,
  searchQuerySchema,
  tagNameSchema,
  TAG_MESSAGES,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { parseId } from '../../common/parse-id.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { edgeCacheHeaders } from '../../http/edge-cache.js';
import { PageCache } from '../../http/page-cache.js';
import { SearchRateLimited } from '../auth/rate-limit.guard.js';
import { atomFeed, type FeedEntry, type FeedInfo } from './atom.js';
import { PasteFeeds } from './paste-feeds.js';

/** A text answer ready to send: its bytes, its gzip (null: too small to be worth it), its ETag. */
export interface TextAnswer {
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
}

const GZIP_MIN_BYTES = 1024;

export function textAnswer(text: string, etag?: string): TextAnswer {
  const body = Buffer.from(text);
  return {
    body,
    gzip: body.length >= GZIP_MIN_BYTES ? gzipSync(body) : null,
    etag: etag ?? `"${createHash('sha1').update(body).digest('base64url')}"`,
  };
}

/**
 * Sends `answer` (304 to a reader that holds it, gzip to one that accepts it), shared by the caches in
 * front for a visitor (edgeCacheHeaders); `browserSeconds`: how long a reader may keep it without asking.
 */
export function sendText(
  req: Request,
  res: Response,
  answer: TextAnswer,
  { type, browserSeconds = 0 }: { type: string; browserSeconds?: number },
): void {
  edgeCacheHeaders(req, res, { browserSeconds });
  res.setHeader('ETag', answer.etag);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', type);
  const gzip = answer.gzip && req.acceptsEncodings('gzip', 'identity') === 'gzip' ? answer.gzip : null;
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  const body = gzip ?? answer.body;
  res.setHeader('Content-Length', body.length);
  res.status(200).end(body);
}

/** Feed readers poll: a minute in their cache, then asked again with the ETag (304 while unchanged). */
const FEED_READER_SECONDS = 60;
const FEED_CONTENT_TYPE = `${FEED_TYPE}; charset=utf-8`;
/** Rendered feeds, by their data's ETag: what they show is in the key, so nothing makes one stale. */
const RENDERED_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The Atom feeds of listed pastes (FEEDS): home's, a tag's, a member's, a search's. Their data comes
 * from the page cache (dropped with the lists by every write that changes them); the XML is made once
 * per version of it.
 */
@Controller()
export class FeedsController {
  private readonly rendered = new LRUCache<string, TextAnswer>({
    maxSize: RENDERED_MAX_BYTES,
    sizeCalculation: (answer) => answer.body.length + (answer.gzip?.length ?? 0),
  });

  constructor(
    private readonly feeds: PasteFeeds,
    private readonly pages: PageCache,
    @InjectConfig() private readonly config: Pick<AppConfig, 'publicUrl' | 'productName'>,
  ) {}

  @Get(FEEDS.recent)
  async recent(@Req() req: Request, @Res() res: Response): Promise<void> {
    const info = this.info(FEEDS.recent, PAGES.home, 'recent pastes');
    await this.send(req, res, 'feed:recent', info, async () => ({ entries: await this.feeds.recent() }));
  }

  @Get(FEEDS.tag(':name'))
  async tag(@Param('name') raw: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const parsed = tagNameSchema.safeParse(raw);
    if (!parsed.success) throw new NotFoundException(TAG_MESSAGES.tagNotFound);
    const name = parsed.data;
    // The tag's page (the tags' screens) is /tag/{name}.
    const info = this.info(FEEDS.tag(name), `/tag/${name}`, `pastes tagged ${name}`);
    await this.send(req, res, `feed:tag:${name}`, info, async () => ({
      entries: await this.feeds.tagged(name),
    }));
  }

  @Get(FEEDS.user(':id'))
  async user(@Param('id') raw: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const id = parseId(raw, FEED_MESSAGES.userNotFound);
    const load = () => this.feeds.byAuthor(id);
    const page = await this.pages.list(`feed:user:${id}`, load, false);
    const { username } = JSON.parse(page.json.toString()) as { username: string };
    const info = this.info(FEEDS.user(id), PAGES.profile(id), `pastes by ${username}`);
    this.sendRendered(req, res, page, info);
  }

  /** `q` as /search takes it (searchQuerySchema), counted against the same per-address limit. */
  @Get(FEEDS.search())
  @SearchRateLimited()
  async search(
    @Query(new ZodValidationPipe(searchQuerySchema)) { q: query }: SearchQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const info = this.info(FEEDS.search(query), PAGES.search(query), `search: ${query}`);
    await this.send(req, res, `feed:search:${query}`, info, async () => ({
      entries: await this.feeds.search(query),
    }));
  }

  private info(path: string, page: string, what: string): FeedInfo {
    const base = this.config.publicUrl;
    return {
      selfUrl: `${base}${path}`,
      pageUrl: `${base}${page}`,
      title: `${this.config.productName}: ${what}`,
    };
  }

  private async send(
    req: Request,
    res: Response,
    key: string,
    info: FeedInfo,
    load: () => Promise<{ entries: FeedEntry[] }>,
  ): Promise<void> {
    this.sendRendered(req, res, await this.pages.list(key, load, false), info);
  }

  private sendRendered(
    req: Request,
    res: Response,
    page: { json: Buffer; etag: string },
    info: FeedInfo,
  ): void {
    const key = `${page.etag}:${info.selfUrl}`;
    let answer = this.rendered.get(key);
    if (!answer) {
      const { entries } = JSON.parse(page.json.toString()) as { entries: FeedEntry[] };
      answer = textAnswer(atomFeed(this.config, info, entries), `"atom-${page.etag.slice(1)}`);
      this.rendered.set(key, answer);
    }
    sendText(req, res, answer, { type: FEED_CONTENT_TYPE, browserSeconds: FEED_READER_SECONDS });
  }
}
