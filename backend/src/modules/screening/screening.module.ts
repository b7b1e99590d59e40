import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { UsersModule } from '../users/users.module.js';
import { PeopleService } from './people.service.js';
import { ReviewQueuePort } from './review-queue.js';
import { SpamMarksService } from './spam-marks.service.js';
import { SpamScreen } from './spam-screen.js';

/**
 * What a post must pass before it is published, for the posting paths (threads, messages,
 * notifications): mutes and blocks, the spam signals, and the way to the review queue for a held post
 * (the moderation module, above them, registers that queue), and the deleted spammers' marks staff see.
 */
@Module({
  imports: [UsersModule, AuditModule],
  providers: [PeopleService, SpamScreen, ReviewQueuePort, SpamMarksService],
  exports: [PeopleService, SpamScreen, ReviewQueuePort, SpamMarksService],
})
export class ScreeningModule {}
