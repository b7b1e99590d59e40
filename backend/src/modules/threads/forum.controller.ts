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
  type ThreadDetail,
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
import { AdminGuard, WriterGuard } from '../../common/writer.guard.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import type { User } from '../users/entities/user.entity.js';
import { ForumService } from './forum.service.js';

const threadId = (raw: string) => parseId(raw, FORUM_MESSAGES.threadNotFound);

/** The 400 message for a users-directory name filter longer than USER_FILTER_MAX. */
export const USER_FILTER_TOO_LONG = `The name filter must be at most ${USER_FILTER_MAX} characters`;

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
  constructor(private readonly forum: ForumService) {}

  @Get('threads/recent')
  recent(@Query('cursor') cursor: unknown): Promise<RecentThreadsPage> {
    return this.forum.recent(single(cursor) || undefined);
  }

  @Get('threads/featured')
  featured(): Promise<ThreadCard[]> {
    return this.forum.featured();
  }

  /** Open to visitors; a signed-in member also gets their own votes (`myVote`). */
  @Get('threads/:id')
  @UseGuards(OptionalSessionGuard)
  thread(@Param('id') id: string, @OptionalCurrentUser() viewer: User | null): Promise<ThreadDetail> {
    return this.forum.detail(threadId(id), viewer?.id ?? null);
  }

  @Get('threads/:id/raw')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('X-Content-Type-Options', 'nosniff')
  raw(@Param('id') id: string): Promise<string> {
    return this.forum.raw(threadId(id));
  }

  @Post('threads')
  @UseGuards(WriterGuard)
  createThread(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(createThreadSchema)) body: CreateThreadBody,
  ): Promise<{ id: number }> {
    return this.forum.createThread(user, body);
  }

  @Post('threads/:id/replies')
  @UseGuards(WriterGuard)
  createReply(
    @CurrentUser() user: User,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(createReplySchema)) body: CreateReplyBody,
  ): Promise<{ id: number }> {
    return this.forum.createReply(user, threadId(id), body);
  }

  @Post('votes')
  @HttpCode(200)
  @UseGuards(WriterGuard)
  vote(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(voteSchema)) body: VoteBody,
  ): Promise<VoteResult> {
    return this.forum.vote(user, body);
  }

  @Get('search')
  search(@Query('q') q: unknown, @Query('page') page: unknown): Promise<SearchResults> {
    // PostgreSQL cannot take NUL characters; they carry no words anyway.
    const query = (single(q) ?? '').replaceAll('\0', '').trim();
    if (!query) throw new BadRequestException(FORUM_MESSAGES.searchQueryRequired);
    const pageText = single(page);
    const pageNumber = pageText && /^\d{1,6}$/.test(pageText) ? Math.max(Number(pageText), 1) : 1;
    return this.forum.search(query, pageNumber);
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
  user(@Param('id') id: string): Promise<UserProfile> {
    return this.forum.profile(parseId(id, FORUM_MESSAGES.userNotFound));
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
