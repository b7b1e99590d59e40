import { Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { HttpModule } from '../../http/http.module.js';
import { PageCache } from '../../http/page-cache.js';
import { AuditModule } from '../audit/audit.module.js';
import { ScreeningModule } from '../screening/screening.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { RanksModule } from '../ranks/ranks.module.js';
import { UsersModule } from '../users/users.module.js';
import { SigningModule } from '../signing/signing.module.js';
import { PastesController } from './pastes.controller.js';
import { PastesAdminController } from './pastes-admin.controller.js';
import { PastesService } from './pastes.service.js';
import { PasteAdminService } from './paste-admin.service.js';
import { PasteIntakeController } from './paste-intake.controller.js';
import { EditsService } from './edits.service.js';
import { RevisionsController } from './revisions.controller.js';
import { RevisionsService } from './revisions.service.js';
import { SearchService } from './search.service.js';
import { TrashService } from './trash.service.js';
import { TrashPurgeModule } from './trash-purge.module.js';
import { ViewCounter } from './view-counter.js';
import { PasteExpiryModule } from './paste-expiry.module.js';
import { BurnService } from './burn.service.js';
import { PostHidingModule } from './post-hiding.module.js';
import { PostNoticesModule } from './post-notices.module.js';
import { ViewerVotesModule } from './viewer-votes.module.js';
import { TagsAdminController, TagsController } from './tags.controller.js';
import { TagsService } from './tags.service.js';

/**
 * The forum: pastes (from the web form and the terminal), replies and search (a member's own votes through
 * ViewerVotesPort, which the votes module fills).
 */
@Module({
  imports: [
    UsersModule,
    SigningModule,
    NotificationsModule,
    PostNoticesModule,
    AuditModule,
    RanksModule,
    ViewerVotesModule,
    PasteExpiryModule,
    TrashPurgeModule,
    // The spam signals, and the review queue for held posts (below threads).
    ScreeningModule,
    PostHidingModule,
    HttpModule,
  ],
  controllers: [
    PastesController,
    PastesAdminController,
    PasteIntakeController,
    RevisionsController,
    TagsController,
    TagsAdminController,
  ],
  providers: [
    PastesService,
    SearchService,
    PasteAdminService,
    ViewCounter,
    EditsService,
    RevisionsService,
    BurnService,
    TrashService,
    TagsService,
  ],
  exports: [ViewCounter, PastesService, TrashService, TagsService, PostHidingModule, SearchService],
})
export class PastesModule implements OnModuleInit, OnModuleDestroy {
  private flushed: Subscription | undefined;

  constructor(
    private readonly views: ViewCounter,
    private readonly pages: PageCache,
  ) {}

  /**
   * Stored view counts moved: those pastes' pages and the lists that show their cards are stale (on every
   * instance); the other lists are left as they are.
   */
  onModuleInit(): void {
    this.flushed = this.views.flushed$.subscribe((threads) => {
      void this.pages.changed({ cards: threads, threads, countsOnly: true });
    });
  }

  onModuleDestroy(): void {
    this.flushed?.unsubscribe();
  }
}
