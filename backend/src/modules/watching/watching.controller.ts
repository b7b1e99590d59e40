import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, UseGuards } from '@nestjs/common';
import {
  API,
  bookmarkBodySchema,
  type BookmarksPage,
  cursorQuerySchema,
  type CursorQuery,
  type FollowState,
  type PasteWatchState,
  type TagWatchState,
  type WatchingList,
  type WatchSettings,
  watchSettingsSchema,
} from '@termpaste/contracts';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { SessionGuard } from '../auth/guards/session.guard.js';
import { PrivateRead } from '../auth/tokens/token-scope.decorator.js';
import type { User } from '../users/entities/user.entity.js';
import { bookmarkKind, BookmarksService } from './bookmarks.service.js';
import { WatchingService } from './watching.service.js';

/**
 * Watching pastes and tags, following members, bookmarks: signed in, not banned (401); an unverified
 * address may (it posts nothing). PUT and DELETE are idempotent, 204. Tokens read with `private:read`.
 */
@Controller()
@UseGuards(SessionGuard)
export class WatchingController {
  constructor(
    private readonly watching: WatchingService,
    private readonly bookmarks: BookmarksService,
  ) {}

  @Get(API.threadWatch(':id'))
  @PrivateRead()
  pasteState(@CurrentUser() user: User, @Param('id') id: string): Promise<PasteWatchState> {
    return this.watching.pasteState(user.id, id);
  }

  @Put(API.threadWatch(':id'))
  @HttpCode(204)
  watchPaste(@CurrentUser() user: User, @Param('id') id: string): Promise<void> {
    return this.watching.setPasteWatch(user.id, id, true);
  }

  @Delete(API.threadWatch(':id'))
  @HttpCode(204)
  unwatchPaste(@CurrentUser() user: User, @Param('id') id: string): Promise<void> {
    return this.watching.setPasteWatch(user.id, id, false);
  }

  @Get(API.userFollow(':id'))
  @PrivateRead()
  followState(@CurrentUser() user: User, @Param('id') id: string): Promise<FollowState> {
    return this.watching.followState(user.id, id);
  }

  @Put(API.userFollow(':id'))
  @HttpCode(204)
  follow(@CurrentUser() user: User, @Param('id') id: string): Promise<void> {
    return this.watching.follow(user.id, id);
  }

  @Delete(API.userFollow(':id'))
  @HttpCode(204)
  unfollow(@CurrentUser() user: User, @Param('id') id: string): Promise<void> {
    return this.watching.unfollow(user.id, id);
  }

  @Get(API.tagWatch(':name'))
  @PrivateRead()
  tagState(@CurrentUser() user: User, @Param('name') name: string): Promise<TagWatchState> {
    return this.watching.tagState(user.id, name);
  }

  @Put(API.tagWatch(':name'))
  @HttpCode(204)
  watchTag(@CurrentUser() user: User, @Param('name') name: string): Promise<void> {
    return this.watching.setTagWatch(user.id, name, true);
  }

  @Delete(API.tagWatch(':name'))
  @HttpCode(204)
  unwatchTag(@CurrentUser() user: User, @Param('name') name: string): Promise<void> {
    return this.watching.setTagWatch(user.id, name, false);
  }

  @Get(API.bookmarks)
  @PrivateRead()
  listBookmarks(
    @CurrentUser() user: User,
    @Query(new ZodValidationPipe(cursorQuerySchema)) { cursor }: CursorQuery,
  ): Promise<BookmarksPage> {
    return this.bookmarks.list(user.id, cursor);
  }

  @Put(API.bookmark(':kind', ':id'))
  @HttpCode(204)
  putBookmark(
    @CurrentUser() user: User,
    @Param('kind') kind: string,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(bookmarkBodySchema)) body: { note: string | null },
  ): Promise<void> {
    return this.bookmarks.put(user.id, bookmarkKind(kind), id, body.note);
  }

  @Delete(API.bookmark(':kind', ':id'))
  @HttpCode(204)
  deleteBookmark(
    @CurrentUser() user: User,
    @Param('kind') kind: string,
    @Param('id') id: string,
  ): Promise<void> {
    return this.bookmarks.remove(user.id, bookmarkKind(kind), id);
  }

  @Get(API.userWatching)
  @PrivateRead()
  list(@CurrentUser() user: User): Promise<WatchingList> {
    return this.watching.list(user.id);
  }

  @Put(API.userWatching)
  settings(
    @CurrentUser() user: User,
    @Body(new ZodValidationPipe(watchSettingsSchema)) body: WatchSettings,
  ): Promise<WatchSettings> {
    return this.watching.setSettings(user.id, body);
  }
}
