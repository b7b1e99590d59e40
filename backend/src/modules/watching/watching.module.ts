import { Module, type OnModuleInit } from '@nestjs/common';
import { PastesModule } from '../pastes/pastes.module.js';
import { TagsService } from '../pastes/tags.service.js';
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
  imports: [UsersModule, PastesModule, WatchNoticesModule],
  controllers: [WatchingController],
  providers: [WatchingService, BookmarksService],
  exports: [WatchingService],
})
export class WatchingModule implements OnModuleInit {
  constructor(
    private readonly tags: TagsService,
    private readonly watching: WatchingService,
  ) {}

  /** A tag merge moves the merged tag's watchers to the tag it became (a rename keeps the tag's id). */
  onModuleInit(): void {
    this.tags.onMerge((manager, fromId, intoId) => this.watching.moveTagWatches(manager, fromId, intoId));
  }
}
