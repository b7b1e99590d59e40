import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { PeopleService } from './people.service.js';
import { ReviewQueuePort } from './review-queue.js';
import { SpamScreen } from './spam-screen.js';

/**
 * What a post must pass before it is published, for the posting paths (threads, messages,
 * notifications): mutes and blocks, the spam signals, and the way to the review queue for a held post
 * (the moderation module, above them, registers that queue).
 */
@Module({
  imports: [UsersModule],
  providers: [PeopleService, SpamScreen, ReviewQueuePort],
  exports: [PeopleService, SpamScreen, ReviewQueuePort],
})
export class ScreeningModule {}
