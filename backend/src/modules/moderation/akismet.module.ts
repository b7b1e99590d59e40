import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { PostHidingModule } from '../pastes/post-hiding.module.js';
import { ReviewItemsModule } from './review-items.module.js';
import { SignalHiding } from './signal-hiding.js';
import { AkismetChecker } from './akismet.js';

/** The Akismet check and hiding by a signal, for the API (ModerationModule) and the worker alike. */
@Module({
  imports: [PostHidingModule, NotificationsModule, ReviewItemsModule],
  providers: [SignalHiding, AkismetChecker],
  exports: [SignalHiding],
})
export class AkismetModule {}
