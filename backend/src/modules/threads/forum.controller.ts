import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  type CreateReplyBody,
  type CreateThreadBody,
  createReplySchema,
  createThreadSchema,
  FORUM_MESSAGES,
  type RecentThreadsPage,
  type SearchResults,
  type ThreadCard,
  type ThreadFlags,
  USER_FILTER_MAX,
  type UserProfile,
  type UsersPage,
  type VoteBody,
  type VoteResult,
  voteSchema,
} from '@termpaste/contracts';
import { CurrentUser, OptionalCurrentUser } from '../../common/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { OptionalSessionGuard, SessionGuard } from '../../common/session.guard.js';
import { AdminGuard } from '../../common/writer.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import type { Request, Response } from 'express';
import { ForumService } from './forum.service.js';
import { PageCache, sendDetail, sendPage, toDetailPage, toPage, wantsFresh } from './page-cache.js';
import { WriteRateLimited } from './write-limits.js';

const threadId = (raw: string) => parseId(raw, FORUM_MESSAGES.threadNotFound);

/** The 400 message for a users-directory name filter longer than USER_FILTER_MAX. */
export const USER_FILTER_TOO_LONG = `The name filter must be at most ${USER_FILTER_MAX} characters`;

/** Search results are cached for queries up to this long (longer ones are rare, and each its own). */
const CACHED_QUERY_MAX = 200;

/** A query parameter as one string (a repeated one counts as absent). */
function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Pastes, replies, votes and members (SPEC §7). Reading is open to anyone, except the users directory
 * (signed-in members); writing needs a member not banned.
 */
@Controller('api')
export class ForumController {
  constructor(
    private readonly forum: ForumService,
    private readonly pages: PageCache,
  ) {}

  /** Home, each page (the first, or one after a cursor) from the page cache. */
  @Get('threads/recent')
  async recent(@Query('cursor') cursor: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    const after = single(cursor) || undefined;
    const load = (): Promise<RecentThreadsPage> => this.forum.recent(after);
    sendPage(req, res, await this.pages.list(`home:${after ?? ''}`, load, wantsFresh(req)));
  }

  @Get('threads/featured')
  async featured(@Req() req: Request, @Res() res: Response): Promise<void> {
    const load = (): Promise<ThreadCard[]> => this.forum.featured();
    sendPage(req, res, await this.pages.list('featured', load, wantsFresh(req)));
  }

  /**
   * Open to visitors; a signed-in member also gets their own votes (`myVote`). Each read counts a view.
   * The page comes from the page cache; a member's votes are read for them alone.
   */
  @Get('threads/:id')
  @UseGuards(OptionalSessionGuard)
  async thread(
    @Param('id') id: string,
    @OptionalCurrentUser() viewer: User | null,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const paste = threadId(id);
    const page = await this.pages.detail(
      paste,
      async () => {
        const { detail, storedViews } = await this.forum.detail(paste);
        return toDetailPage(detail, storedViews);
      },
      wantsFresh(req),
    );
    const views = this.forum.viewed(paste, page.storedViews);
    if (!viewer) return sendDetail(req, res, page, views);
    const replyIds = page.detail.replies.map((reply) => reply.id);
    const votes = await this.forum.votesOf(viewer.id, paste, replyIds);
    sendDetail(req, res, page, views, { personal: true, votes });
  }

  @Get('threads/:id/raw')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('X-Content-Type-Options', 'nosniff')
  raw(@Param('id') id: string): Promise<string> {
    return this.forum.raw(threadId(id));
  }

  @Post('threads')
  @WriteRateLimited('paste')
  createThread(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(createThreadSchema)) body: CreateThreadBody,
  ): Promise<{ id: number }> {
    return this.forum.createThread(user, body);
  }

  @Post('threads/:id/replies')
  @WriteRateLimited('reply')
  createReply(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(createReplySchema)) body: CreateReplyBody,
  ): Promise<{ id: number }> {
    return this.forum.createReply(user, threadId(id), body);
  }

  @Post('votes')
  @HttpCode(200)
  @WriteRateLimited('vote')
  vote(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(voteSchema)) body: VoteBody,
  ): Promise<VoteResult> {
    return this.forum.vote(user, body);
  }

  @Get('search')
  async search(
    @Query('q') q: unknown,
    @Query('page') page: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    // PostgreSQL cannot take NUL characters; they carry no words anyway.
    const query = (single(q) ?? '').replaceAll('\0', '').trim();
    if (!query) throw new BadRequestException(FORUM_MESSAGES.searchQueryRequired);
    const pageText = single(page);
    const pageNumber = pageText && /^\d{1,6}$/.test(pageText) ? Math.max(Number(pageText), 1) : 1;
    const load = (): Promise<SearchResults> => this.forum.search(query, pageNumber);
    const cached = query.length <= CACHED_QUERY_MAX;
    sendPage(
      req,
      res,
      cached
        ? await this.pages.list(`search:${pageNumber}:${query}`, load, wantsFresh(req))
        : toPage(await load()),
    );
  }

  /** The users directory, for signed-in members: `q` filters by a part of the username. */
  @Get('users')
  @UseGuards(SessionGuard)
  users(@Query('q') q: unknown, @Query('cursor') cursor: unknown): Promise<UsersPage> {
    // PostgreSQL cannot take NUL characters; no username holds one.
    const filter = (single(q) ?? '').replaceAll('\0', '').trim();
    if (filter.length > USER_FILTER_MAX) throw new BadRequestException(USER_FILTER_TOO_LONG);
    return this.forum.directory(filter, single(cursor) || undefined);
  }

  @Get('users/:id')
  async user(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const userId = parseId(id, FORUM_MESSAGES.userNotFound);
    const load = (): Promise<UserProfile> => this.forum.profile(userId);
    sendPage(req, res, await this.pages.list(`profile:${userId}`, load, wantsFresh(req)));
  }
}

/** Moderation of pastes and replies: admins only, each action recorded in the audit log. */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class ForumAdminController {
  constructor(private readonly forum: ForumService) {}

  @Post('threads/:id/pin')
  @HttpCode(200)
  pin(@CurrentUser() admin: User, @Param('id') id: string): Promise<ThreadFlags> {
    return this.forum.toggle(threadId(id), 'is_pinned', admin);
  }

  @Post('threads/:id/lock')
  @HttpCode(200)
  lock(@CurrentUser() admin: User, @Param('id') id: string): Promise<ThreadFlags> {
    return this.forum.toggle(threadId(id), 'is_locked', admin);
  }

  @Post('threads/:id/featured')
  @HttpCode(200)
  featured(@CurrentUser() admin: User, @Param('id') id: string): Promise<ThreadFlags> {
    return this.forum.toggle(threadId(id), 'is_featured', admin);
  }

  @Delete('threads/:id')
  async deleteThread(@CurrentUser() admin: User, @Param('id') id: string): Promise<{ message: string }> {
    await this.forum.deleteThread(threadId(id), admin);
    return { message: 'Thread deleted successfully' };
  }

  @Delete('replies/:id')
  async deleteReply(@CurrentUser() admin: User, @Param('id') id: string): Promise<{ message: string }> {
    await this.forum.deleteReply(parseId(id, FORUM_MESSAGES.replyNotFound), admin);
    return { message: 'Reply deleted successfully' };
  }
}
