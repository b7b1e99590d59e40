import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { API } from '@termpaste/contracts';
import { AuditModule } from '../audit/audit.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { RanksModule } from '../ranks/ranks.module.js';
import { UsersModule } from '../users/users.module.js';
import { VotesModule } from '../votes/votes.module.js';
import { ForumAdminController, ForumController } from './forum.controller.js';
import { ForumService } from './forum.service.js';
import { ModerationService } from './moderation.service.js';
import { PageCache } from './page-cache.js';
import { PasteIntakeMiddleware, PasteJsonMiddleware } from './paste-intake.js';
import { PastesController } from './pastes.controller.js';
import { EditsService } from './edits.service.js';
import { RevisionsController } from './revisions.controller.js';
import { RevisionsService } from './revisions.service.js';
import { SearchService } from './search.service.js';
import { ViewCounter } from './view-counter.js';

/**
 * The forum: pastes (from the web form and the terminal), replies and search (a member's own votes from
 * the votes module).
 */
@Module({
  imports: [UsersModule, NotificationsModule, AuditModule, RanksModule, VotesModule],
  controllers: [ForumController, ForumAdminController, PastesController, RevisionsController],
  providers: [
    ForumService,
    SearchService,
    ModerationService,
    ViewCounter,
    PageCache,
    EditsService,
    RevisionsService,
  ],
  exports: [ViewCounter, ForumService, PageCache],
})
export class ForumModule implements NestModule {
  /** A paste's body is read by the routes that take one, sized for PASTE_MAX_BYTES (paste-intake.ts). */
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(PasteIntakeMiddleware).forRoutes({ path: API.pastes, method: RequestMethod.POST });
    consumer.apply(PasteJsonMiddleware).forRoutes(
      { path: API.threads, method: RequestMethod.POST },
      // An edit's new content may be as large as a new paste's (issue 16).
      { path: API.thread(':id'), method: RequestMethod.PATCH },
    );
  }
}
