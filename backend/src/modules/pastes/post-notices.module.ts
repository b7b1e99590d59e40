import { Module, type OnModuleInit } from '@nestjs/common';
import { NoticeRegistry } from '../notifications/notice-registry.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { NOTIFICATION_JOBS } from '../notifications/notifications.queue.js';
import { PostNotices } from './post-notices.js';

/**
 * Registers with the notifications module how a new paste or reply notifies, and how its list joins a
 * paste: for the API (PastesModule) and the worker alike.
 */
@Module({ imports: [NotificationsModule], providers: [PostNotices] })
export class PostNoticesModule implements OnModuleInit {
  constructor(
    private readonly registry: NoticeRegistry,
    private readonly notices: PostNotices,
  ) {}

  onModuleInit(): void {
    this.registry.registerBuilder(NOTIFICATION_JOBS.thread, this.notices.pasteBuilder);
    this.registry.registerBuilder(NOTIFICATION_JOBS.paste, this.notices.quietPasteBuilder);
    this.registry.registerBuilder(NOTIFICATION_JOBS.reply, this.notices.replyBuilder);
    this.registry.registerPasteSql(this.notices.pasteSql);
  }
}
