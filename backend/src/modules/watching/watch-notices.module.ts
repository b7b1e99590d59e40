import { Module, type OnModuleInit } from '@nestjs/common';
import { NoticeRegistry } from '../notifications/notice-registry.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { WatchNotices } from './watch-notices.js';

/**
 * Registers with the notifications module who else a new paste or reply tells (watchers, followers, the
 * tags' watchers): for the API and the worker alike.
 */
@Module({ imports: [NotificationsModule], providers: [WatchNotices] })
export class WatchNoticesModule implements OnModuleInit {
  constructor(
    private readonly registry: NoticeRegistry,
    private readonly notices: WatchNotices,
  ) {}

  onModuleInit(): void {
    this.registry.registerAudience(this.notices);
  }
}
