import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { PeopleService } from './people.service.js';
import { ReviewItems } from './review-items.js';
import { SpamScreen } from './spam-screen.js';

/**
 * The half of moderation the posting paths call (the threads, messages and notifications modules import
 * it): mutes and blocks, the spam signals, held posts' review items. It imports none of them, so there
 * is no cycle; ModerationModule, which decides, imports them all.
 */
@Module({
  imports: [UsersModule],
  providers: [PeopleService, SpamScreen, ReviewItems],
  exports: [PeopleService, SpamScreen, ReviewItems],
})
export class ScreeningModule {}
