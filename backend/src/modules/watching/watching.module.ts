import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { BookmarksService } from './bookmarks.service.js';
import { WatchNoticesModule } from './watch-notices.module.js';
import { WatchingController } from './watching.controller.js';
import { WatchingService } from './watching.service.js';

/**
 * Watching pastes and tags, following members, bookmarks: their calls, and (WatchNoticesModule) the
 * notifications they make.
 */
@Module({
  imports: [UsersModule, WatchNoticesModule],
  controllers: [WatchingController],
  providers: [WatchingService, BookmarksService],
  // The tags' merge (admin) moves a merged tag's watchers with WatchingService.moveTagWatches.
  exports: [WatchingService],
})
export class WatchingModule {}
