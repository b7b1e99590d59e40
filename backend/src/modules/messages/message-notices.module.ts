import { Module, type OnModuleInit } from '@nestjs/common';
import { NoticeRegistry } from '../notifications/notice-registry.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { NOTIFICATION_JOBS } from '../notifications/notifications.queue.js';
import { MessageNotices } from './message-notices.js';

/**
 * Registers with the notifications module how a new private message notifies: for the API
 * (MessagesModule) and the worker alike.
 */
@Module({ imports: [NotificationsModule], providers: [MessageNotices] })
export class MessageNoticesModule implements OnModuleInit {
  constructor(
    private readonly registry: NoticeRegistry,
    private readonly notices: MessageNotices,
  ) {}

  onModuleInit(): void {
    this.registry.registerBuilder(NOTIFICATION_JOBS.message, this.notices.builder);
  }
}
