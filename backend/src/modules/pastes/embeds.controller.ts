import { createHash } from 'node:crypto';
import {
  BadRequestException,
  Controller,
  Get,
  HttpException,
  HttpStatus,
  NotFoundException,
  Param,
  Query,
  Req,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import {
  API,
  EMBED_LINES_MAX,
  EMBED_PAGE,
  EMBED_WIDTH,
  embedHeight,
  embedIframe,
  FEED_MESSAGES,
  type Oembed,
  OEMBED_CACHE_AGE,
  type OembedQuery,
  oembedQuerySchema,
  PAGES,
  parsePasteRef,
  type PasteRef,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { EdgeCached } from '../../http/edge-cache.js';
import { allowFraming } from '../../http/security-headers.js';
import { embedNotFoundPage, embedPage, linesOf } from './embed-page.js';
import { sendText, textAnswer, type TextAnswer } from './feeds.controller.js';
import { type EmbeddablePaste, PasteFeeds } from './paste-feeds.js';

const HTML = 'text/html; charset=utf-8';
/** Rendered embeds, by a hash of what they show: nothing makes one stale, the LRU bounds them. */
const RENDERED_MAX_BYTES = 16 * 1024 * 1024;

/** The paste a site address names: `/thread/{ref}` or `/embed/{ref}` (a query or `#L12` after it). */
export function pasteRefOfUrl(raw: string, publicUrl: string): PasteRef | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const site = new URL(publicUrl);
  if (url.origin !== site.origin) return null;
  const base = site.pathname.replace(/\/$/, '');
  const path = url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : null;
  const match = path && /^\/(?:thread|embed)\/([^/]+)\/?$/.exec(path);
  return match ? parsePasteRef(match[1]!) : null;
}

/**
 * `/embed/{id}`: a paste's code view alone, for other sites' pages (framable by any), and oEmbed, which
 * hands them the iframe. Public pastes by number, unlisted ones by key; anything else is a 404.
 */
@Controller()
export class EmbedsController {
  private readonly rendered = new LRUCache<string, TextAnswer>({
    maxSize: RENDERED_MAX_BYTES,
    sizeCalculation: (answer) => answer.body.length + (answer.gzip?.length ?? 0),
  });

  constructor(
    private readonly feeds: PasteFeeds,
    @InjectConfig() private readonly config: Pick<AppConfig, 'publicUrl' | 'productName'>,
  ) {}

  /**
   * Read each time (an edit, a deletion or a change of visibility shows at once: one query by its
   * primary key or its key); the highlighting is done once per version of the paste.
   */
  @Get(EMBED_PAGE(':id'))
  async embed(@Param('id') raw: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    allowFraming(res);
    res.setHeader('X-Robots-Tag', 'noindex');
    const ref = parsePasteRef(raw);
    const paste = ref === null ? null : await this.feeds.embeddable(ref);
    if (!paste) {
      res
        .status(404)
        .setHeader('Cache-Control', 'no-store')
        .type(HTML)
        .send(embedNotFoundPage(this.config.productName, `${this.config.publicUrl}${PAGES.home}`));
      return;
    }
    const shown = {
      title: paste.title,
      content: paste.content,
      language: paste.language,
      author: paste.author?.username ?? null,
      pasteUrl: `${this.config.publicUrl}${PAGES.thread(ref!)}`,
    };
    const etag = `"embed-${createHash('sha1').update(JSON.stringify(shown)).digest('base64url')}"`;
    let answer = this.rendered.get(etag);
    if (!answer) {
      answer = textAnswer(embedPage(shown, this.config.productName), etag);
      this.rendered.set(etag, answer);
    }
    sendText(req, res, answer, { type: HTML });
  }

  /**
   * oEmbed 1.0 (https://oembed.com): `url` a paste's address on this site. 400 without it, 501 for a
   * format but JSON, 404 for what cannot be embedded (FEED_MESSAGES).
   */
  @Get(API.oembed)
  @UseInterceptors(EdgeCached)
  async oembed(@Query(new ZodValidationPipe(oembedQuerySchema)) query: OembedQuery): Promise<Oembed> {
    const url = query.url?.trim();
    if (!url) throw new BadRequestException(FEED_MESSAGES.oembedUrlRequired);
    if (query.format !== undefined && query.format !== 'json') {
      throw new HttpException(FEED_MESSAGES.oembedFormat, HttpStatus.NOT_IMPLEMENTED);
    }
    const ref = pasteRefOfUrl(url, this.config.publicUrl);
    const paste = ref === null ? null : await this.feeds.embeddable(ref);
    if (!paste) throw new NotFoundException(FEED_MESSAGES.oembedNotFound);
    return this.oembedOf(paste, ref!);
  }

  private oembedOf(paste: EmbeddablePaste, ref: PasteRef): Oembed {
    const base = this.config.publicUrl;
    const height = embedHeight(Math.min(linesOf(paste.content).length, EMBED_LINES_MAX));
    return {
      version: '1.0',
      type: 'rich',
      html: embedIframe({ src: `${base}${EMBED_PAGE(ref)}`, title: paste.title, height }),
      width: EMBED_WIDTH,
      height,
      title: paste.title,
      ...(paste.author
        ? { author_name: paste.author.username, author_url: `${base}${PAGES.profile(paste.author.id)}` }
        : {}),
      provider_name: this.config.productName,
      provider_url: `${base}/`,
      cache_age: OEMBED_CACHE_AGE,
    };
  }
}
