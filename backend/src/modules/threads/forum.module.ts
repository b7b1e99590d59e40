import { Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { HttpModule } from '../../http/http.module.js';
import { PageCache } from '../../http/page-cache.js';
import { AuditModule } from '../audit/audit.module.js';
import { ScreeningModule } from '../moderation/screening.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { RanksModule } from '../ranks/ranks.module.js';
import { UsersModule } from '../users/users.module.js';
import { VotesModule } from '../votes/votes.module.js';
import { ForumAdminController, ForumController } from './forum.controller.js';
import { ForumService } from './forum.service.js';
import { ModerationService } from './moderation.service.js';
import { PastesController } from './pastes.controller.js';
import { EditsService } from './edits.service.js';
import { RevisionsController } from './revisions.controller.js';
import { RevisionsService } from './revisions.service.js';
import { SearchService } from './search.service.js';
import { TrashService } from './trash.service.js';
import { TrashPurgeModule } from './trash-purge.js';
import { ViewCounter } from './view-counter.js';
import { PasteExpiryModule } from './paste-expiry.js';
import { BurnService } from './burn.service.js';
import { PostHidingModule } from './post-hiding.js';

/**
 * The forum: pastes (from the web form and the terminal), replies and search (a member's own votes from
 * the votes module).
 */
@Module({
  imports: [
    UsersModule,
    NotificationsModule,
    AuditModule,
    RanksModule,
    VotesModule,
    PasteExpiryModule,
    TrashPurgeModule,
    // The spam signals and held posts' review items (the lower half of moderation: no cycle).
    ScreeningModule,
    PostHidingModule,
    HttpModule,
  ],
  controllers: [ForumController, ForumAdminController, PastesController, RevisionsController],
  providers: [
    ForumService,
    SearchService,
    ModerationService,
    ViewCounter,
    EditsService,
    RevisionsService,
    BurnService,
    TrashService,
  ],
  // HttpModule: the profiles' page shares the page cache.
  exports: [ViewCounter, ForumService, HttpModule, TrashService, PostHidingModule],
})
export class ForumModule implements OnModuleInit, OnModuleDestroy {
  private flushed: Subscription | undefined;

  constructor(
    private readonly views: ViewCounter,
    private readonly pages: PageCache,
  ) {}

  /** Stored view counts moved: the cards and details that show them are stale (on every instance). */
  onModuleInit(): void {
    this.flushed = this.views.flushed$.subscribe((threads) => {
      void this.pages.changed({ lists: true, threads });
    });
  }

  onModuleDestroy(): void {
    this.flushed?.unsubscribe();
  }
}
