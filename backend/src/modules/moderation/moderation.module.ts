import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module.js';
import { AkismetModule } from './akismet.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { ChatModule } from '../chat/chat.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { PastesModule } from '../pastes/pastes.module.js';
import { UsersModule } from '../users/users.module.js';
import { FlagRateLimitGuard } from './flag-limit.guard.js';
import { FlagsController } from './flags.controller.js';
import { FlagsService } from './flags.service.js';
import { HeldPostsService } from './held-posts.service.js';
import { PeopleController } from './people.controller.js';
import { ReviewController } from './review.controller.js';
import { ReviewItemsModule } from './review-items.module.js';
import { ReviewService } from './review.service.js';
import { ScreeningModule } from '../screening/screening.module.js';
import { SuspensionLiftModule } from './suspension-lift.module.js';
import { SpamMarksController } from './spam-marks.controller.js';
import { SuspensionsController } from './suspensions.controller.js';
import { SuspensionsService } from './suspensions.service.js';

/**
 * Moderation at community scale: members' flags and their weights, the review queue and staff's
 * decisions, suspensions and silences, held posts, deleting spammers, mutes and blocks. The posting
 * paths reach only the screening module, below it.
 */
@Module({
  imports: [
    ScreeningModule,
    ReviewItemsModule,
    PastesModule,
    ChatModule,
    UsersModule,
    AuditModule,
    NotificationsModule,
    AdminModule,
    SuspensionLiftModule,
    AkismetModule,
  ],
  controllers: [
    FlagsController,
    ReviewController,
    SuspensionsController,
    PeopleController,
    SpamMarksController,
  ],
  providers: [SuspensionsService, HeldPostsService, FlagsService, ReviewService, FlagRateLimitGuard],
  exports: [SuspensionsService, HeldPostsService],
})
export class ModerationModule {}
