import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { RanksModule } from '../ranks/ranks.module.js';
import { UsersModule } from '../users/users.module.js';
import { VotesModule } from '../votes/votes.module.js';
import { ForumAdminController, ForumController } from './forum.controller.js';
import { ForumService } from './forum.service.js';
import { ModerationService } from './moderation.service.js';
import { PageCache } from './page-cache.js';
import { SearchService } from './search.service.js';
import { ViewCounter } from './view-counter.js';

/** The forum: pastes, replies and search (a member's own votes from the votes module). */
@Module({
  imports: [UsersModule, NotificationsModule, AuditModule, RanksModule, VotesModule],
  controllers: [ForumController, ForumAdminController],
  providers: [ForumService, SearchService, ModerationService, ViewCounter, PageCache],
  exports: [ViewCounter, ForumService, PageCache],
})
export class ForumModule {}
