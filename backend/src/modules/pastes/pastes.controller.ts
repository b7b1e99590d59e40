import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  API,
  type CreateReplyBody,
  type CreatePasteBody,
  createReplySchema,
  createPasteSchema,
  type CursorQuery,
  cursorQuerySchema,
  POST_MESSAGES,
  MODERATION_MESSAGES,
  type ForkBody,
  forkBodySchema,
  type ForksPage,
  pasteAlive,
  pasteKeyed,
  type PasteRef,
  type RecentPastesPage,
  type SearchQuery,
  searchQuerySchema,
  type SearchResults,
  type PasteCard,
  type PasteDetail,
  type PasteQuery,
  pasteQuerySchema,
  type HeldPost,
} from '@termpaste/contracts';
import { CurrentUser, OptionalCurrentUser } from '../auth/guards/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { OptionalSessionGuard, SessionGuard } from '../auth/guards/session.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { AllowSecrets, refuseSecrets } from '../../common/secrets.js';
import type { User } from '../users/entities/user.entity.js';
import type { Request, Response } from 'express';
import { BurnService } from './burn.service.js';
import { PastesService } from './pastes.service.js';
import { TrashService } from './trash.service.js';
import { SearchService } from './search.service.js';
import { PageCache, sendPage, wantsFresh } from '../../http/page-cache.js';
import { type DetailPage, sendDetail, toDetailPage } from './paste-page.js';
import { pasteRefParam } from './visibility.js';
import { WriteRateLimited } from '../auth/write-limits.js';
import { ViewerVotesPort } from './viewer-votes.js';
import { SearchRateLimited } from '../auth/rate-limit.guard.js';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { chosenOrGuessedLanguage } from './languages.js';
import { checkPasteSize, PasteJsonGuard } from './paste-intake.js';
import { TokenScope } from '../auth/tokens/token-scope.decorator.js';

/** The poster's address and user agent, as the Akismet check sends them. */
export function clientOf(req: Request): { ip: string | null; userAgent: string | null } {
  return { ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null };
}

/** 202 for a post held for review (the body says so), 201 for one made. */
export function answerPosted<T extends object>(res: Response, result: T | HeldPost): T | HeldPost {
  if ('held' in result) res.status(202);
  return result;
}
const replyId = (raw: string) => parseId(raw, POST_MESSAGES.replyNotFound);

/**
 * A fork's page naming its original to that original's author, where the page everyone shares names
 * only a listed original (an unlisted one's link is its author's to give); null when it changes nothing.
 */
function ownOriginalNamed(page: DetailPage, viewer: User): DetailPage | null {
  const original = page.original;
  if (!original || original.listed || original.authorId !== viewer.id) return null;
  const forkedFrom = { id: original.ref, title: original.title };
  return { ...toDetailPage({ ...page.detail, forkedFrom }, page.storedViews), original };
}

/** Pastes, replies and search: reading is open to anyone, writing needs a member not banned. */
@Controller()
export class PastesController {
  constructor(
    private readonly pastes: PastesService,
    private readonly searching: SearchService,
    private readonly votes: ViewerVotesPort,
    private readonly pages: PageCache,
    private readonly burning: BurnService,
    private readonly trash: TrashService,
    @InjectConfig() private readonly config: Pick<AppConfig, 'pasteMaxBytes'>,
  ) {}

  /** Home, each page (the first, or one after a cursor) from the page cache. */
  @Get(API.threadsRecent)
  async recent(
    @Query(new ZodValidationPipe(cursorQuerySchema)) { cursor: after }: CursorQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const load = (): Promise<RecentPastesPage> => this.pastes.recent(after);
    sendPage(req, res, await this.pages.list(`home:${after ?? ''}`, load, wantsFresh(req)));
  }

  @Get(API.threadsFeatured)
  async featured(@Req() req: Request, @Res() res: Response): Promise<void> {
    const load = (): Promise<PasteCard[]> => this.pastes.featured();
    sendPage(req, res, await this.pages.list('featured', load, wantsFresh(req)));
  }

  /**
   * Open to visitors (members also get `myVote`). Each read counts a view but a live refresh. A public
   * paste comes from the page cache, checked for expiry; one by key is read each time: private to its
   * author only (else 404), burn-after-reading without content to anyone else.
   */
  @Get(API.thread(':id'))
  @UseGuards(OptionalSessionGuard)
  async thread(
    @Param('id') id: string,
    @Query(new ZodValidationPipe(pasteQuerySchema)) { refresh }: PasteQuery,
    @OptionalCurrentUser() viewer: User | null,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const ref = pasteRefParam(id);
    let page: DetailPage;
    let paste: number;
    if (typeof ref === 'number') {
      paste = ref;
      page = await this.pages.detail(
        paste,
        async () => {
          const { detail, storedViews, original, related } = await this.pastes.detail(paste);
          return { ...toDetailPage(detail, storedViews), original, related };
        },
        wantsFresh(req),
      );
      if (!pasteAlive({ expiresAt: page.detail.expiresAt, deletedAt: null })) {
        throw new NotFoundException(POST_MESSAGES.pasteNotFound);
      }
    } else {
      const { detail, storedViews, id: number, authorId, original } = await this.pastes.detail(ref);
      const own = viewer !== null && viewer.id === authorId;
      if (detail.visibility === 'private' && !own) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
      if (detail.burnAfterReading && !own) delete detail.content;
      paste = number;
      page = { ...toDetailPage(detail, storedViews), original };
    }
    // Hidden pending review: its author's alone. The cached page is everyone's, so judge it here.
    if (page.detail.hidden && (viewer === null || viewer.id !== page.detail.author?.id)) {
      throw new NotFoundException(MODERATION_MESSAGES.pasteHidden);
    }
    const views = refresh
      ? this.pastes.viewCount(paste, page.storedViews)
      : this.pastes.viewed(paste, page.storedViews);
    // A keyed paste's page is its reader's: never kept by a shared cache, nor indexed. A live refresh
    // must show the change its event told of: never a shared cache's copy from before it.
    const personal = typeof ref === 'string' || refresh;
    if (pasteKeyed(page.detail)) res.setHeader('X-Robots-Tag', 'noindex');
    if (!viewer) return sendDetail(req, res, page, views, { personal });
    page = ownOriginalNamed(page, viewer) ?? page;
    const replyIds = page.detail.replies.map((reply) => reply.id);
    const votes = await this.votes.votesOf(viewer.id, paste, replyIds);
    sendDetail(req, res, page, views, { personal: true, votes });
  }

  /** The exact text, to anyone who may read the paste (a burning one: its author only). */
  @Get(API.threadRaw(':id'))
  @UseGuards(OptionalSessionGuard)
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('X-Content-Type-Options', 'nosniff')
  async raw(
    @Param('id') id: string,
    @OptionalCurrentUser() viewer: User | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const { content, keyed } = await this.pastes.raw(pasteRefParam(id), viewer?.id ?? null);
    if (keyed) res.setHeader('X-Robots-Tag', 'noindex');
    return content;
  }

  /**
   * A signed paste's armoured SSH signature, to anyone who may read its raw text (else 404, as for none);
   * 404 when it is unsigned. `ssh-keygen -Y verify -n termpaste -s` checks it against the raw text.
   */
  @Get(API.threadRawSignature(':id'))
  @UseGuards(OptionalSessionGuard)
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('X-Content-Type-Options', 'nosniff')
  async rawSignature(
    @Param('id') id: string,
    @OptionalCurrentUser() viewer: User | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const { signature, keyed } = await this.pastes.rawSignature(pasteRefParam(id), viewer?.id ?? null);
    if (keyed) res.setHeader('X-Robots-Tag', 'noindex');
    return signature;
  }

  /**
   * A paste that burns after reading, with its content, to anyone who may read it (visitors too), and
   * removed for good in the same transaction unless its author reads it: one reader gets it, any later
   * call is a 404. A POST, so that no link preview, crawler, GET or HEAD ever burns it.
   */
  @Post(API.threadReadOnce(':id'))
  @HttpCode(200)
  @TokenScope('read')
  @UseGuards(OptionalSessionGuard)
  @Header('Cache-Control', 'no-store')
  readOnce(@Param('id') id: string, @OptionalCurrentUser() viewer: User | null): Promise<PasteDetail> {
    return this.burning.readOnce(pasteRefParam(id), viewer?.id ?? null);
  }

  /**
   * The web form's paste: JSON read with room for PASTE_MAX_BYTES (PasteJsonGuard, once the caller may
   * write), the content at most that many bytes of UTF-8 (413), `language` a highlight.js name or alias
   * (400), stored canonical.
   */
  @Post(API.threads)
  @TokenScope('pastes:write')
  @WriteRateLimited('paste', PasteJsonGuard)
  async createPaste(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(createPasteSchema)) body: CreatePasteBody,
    @AllowSecrets() allowSecrets: boolean,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ id: PasteRef } | HeldPost> {
    checkPasteSize(body.content, this.config.pasteMaxBytes);
    await refuseSecrets(body.content, allowSecrets);
    // No language named: terminal output when it has colours, else Markdown.
    const result = await this.pastes.createPaste(
      user,
      { ...body, language: chosenOrGuessedLanguage(body.language, body.content) },
      { client: clientOf(req), via: 'web' },
    );
    return answerPosted(res, result);
  }

  /**
   * A new paste from the one `{id}` names (a fork): the body as a new paste's, every field optional (the
   * original's title, content, language and tags unless given). The same limits and checks as a new paste; a
   * paste the member may not read, or that burns after reading and is not theirs, is a 404.
   */
  @Post(API.threadFork(':id'))
  @TokenScope('pastes:write')
  @WriteRateLimited('paste', PasteJsonGuard)
  async fork(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(forkBodySchema.default({}))) body: ForkBody,
    @AllowSecrets() allowSecrets: boolean,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ id: PasteRef } | HeldPost> {
    const original = await this.pastes.forkSource(pasteRefParam(id), user.id);
    const content = body.content ?? original.content;
    checkPasteSize(content, this.config.pasteMaxBytes);
    await refuseSecrets(content, allowSecrets);
    const result = await this.pastes.createPaste(
      user,
      {
        ...body,
        title: body.title ?? original.title,
        content,
        language:
          body.language === undefined ? original.language : chosenOrGuessedLanguage(body.language, content),
        // The original's tags unless the fork names its own.
        tags: body.tags ?? original.tags,
      },
      // Copied text mentions nobody anew: only content the member wrote (and the mention limit counted).
      {
        forkedFrom: original.id,
        mentions: body.content !== undefined,
        client: clientOf(req),
        via: 'fork',
      },
    );
    return answerPosted(res, result);
  }

  /** The public, alive forks of a paste the viewer may read (else 404), newest first. */
  @Get(API.threadForks(':id'))
  @UseGuards(OptionalSessionGuard)
  forks(
    @Param('id') id: string,
    @Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery,
    @OptionalCurrentUser() viewer: User | null,
  ): Promise<ForksPage> {
    return this.pastes.forks(pasteRefParam(id), viewer?.id ?? null, cursor);
  }

  /**
   * The author deletes their paste (signed in, or a token with `pastes:write`): 204. Another member's
   * is a 403, a paste the caller may not read a 404. It goes to the trash (TrashService).
   */
  @Delete(API.thread(':id'))
  @TokenScope('pastes:write')
  @UseGuards(SessionGuard)
  @HttpCode(204)
  async deletePaste(@CurrentUser() user: User, @Param('id') id: string): Promise<void> {
    await this.trash.deleteOwnPaste(id, user);
  }

  /** The author deletes their reply (a session): 204; another member's is a 403. */
  @Delete(API.reply(':id'))
  @UseGuards(SessionGuard)
  @HttpCode(204)
  async deleteReply(@CurrentUser() user: User, @Param('id') id: string): Promise<void> {
    await this.trash.deleteOwnReply(replyId(id), user);
  }

  @Post(API.threadReplies(':id'))
  @WriteRateLimited('reply')
  async createReply(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(createReplySchema)) body: CreateReplyBody,
    @AllowSecrets() allowSecrets: boolean,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ id: number } | HeldPost> {
    const paste = pasteRefParam(id);
    await refuseSecrets(body.content, allowSecrets);
    if (body.suggestion) await refuseSecrets(body.suggestion, allowSecrets);
    return answerPosted(res, await this.pastes.createReply(user, paste, body, { client: clientOf(req) }));
  }

  /**
   * `q` (required, NUL characters dropped, trimmed, at most SEARCH_QUERY_MAX) and `page` (1-based), parsed
   * by searchQuerySchema; RATE_LIMIT_SEARCH_PER_MINUTE per client address.
   */
  @Get(API.search)
  @SearchRateLimited()
  async search(
    @Query(new ZodValidationPipe(searchQuerySchema)) { q: query, page: pageNumber }: SearchQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const load = (): Promise<SearchResults> => this.searching.search(query, pageNumber);
    // A new paste the search does not find leaves its pages as they are.
    const owns = (ids: readonly number[]) => this.searching.findsAny(query, ids);
    const key = `search:${pageNumber}:${query}`;
    sendPage(req, res, await this.pages.list(key, load, wantsFresh(req), owns));
  }
}
