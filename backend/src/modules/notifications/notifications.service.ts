import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  LIVE_EVENT,
  MESSAGING_MESSAGES,
  type LiveEvent,
  type Notification,
  type NotificationsPage,
  NOTIFICATIONS_PAGE_SIZE,
  type UnreadCountResult,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { createdMicros, keysetPage } from '../../common/keyset-cursor.js';
import { EventsPort } from '../../infra/events/events.port.js';
import { authorJoin, authorJson } from '../users/author-sql.js';
import { hiddenByBlockSql } from '../screening/people-sql.js';
import { type NoticePasteSql, NoticeRegistry } from './notice-registry.js';
import type { Row } from '../../infra/database/columns.js';
import type { Notification as NotificationEntity } from './entities/notification.entity.js';
import type { NotificationCounter } from './entities/notification-counter.entity.js';
import { notificationColumns, type NotificationRow, toNotification } from './notification-rows.js';

/** PostgreSQL's foreign_key_violation: the recipient or the paste went away meanwhile. */
const FOREIGN_KEY_VIOLATION = '23503';

/** The statements' parts, with the paste SQL the threads module registered. */
interface NotificationSql {
  columns: string;
  from: string;
  /**
   * A notification about a paste that is there but its member may not read (made private) is not
   * listed; one whose paste is gone (deleted, expired) stays, naming no paste.
   */
  shown: string;
  ref: NoticePasteSql['ref'];
}

function notificationSql(pastes: NoticePasteSql): NotificationSql {
  return {
    columns: `${notificationColumns('n')}, ${createdMicros('n')} AS "createdMicros",
  ${authorJson('a')} AS actor, ${pastes.refColumns('t')}, t.id AS "readableId"`,
    // A notification with its actor, and its paste as far as its member may read it.
    from: `notifications n ${authorJoin('a', 'n.actor_id')}
  ${pastes.readableJoin('t', 'n.thread_id', 'n.user_id')}`,
    // Not about a member the reader blocked (they come back when unblocked).
    shown: `(n.thread_id IS NULL OR t.id IS NOT NULL OR ${pastes.gone('n.thread_id')})
  AND NOT ${hiddenByBlockSql('n.user_id', 'n.actor_id')}`,
    ref: pastes.ref,
  };
}

/**
 * A notification to create, about paste `threadId`: at most once per recipient and `source`
 * (`thread:<id>`, `reply:<id>` or `message:<id>`).
 */
export type NewNotification = Pick<
  NotificationEntity,
  'userId' | 'type' | 'content' | 'actorId' | 'source'
> & {
  threadId: number | null;
};

/**
 * Notifications: the list, the unread count (kept on write), reading, and creating them once per member
 * and source. Other modules write their fan-out job to the outbox in the post's transaction
 * (notifications.queue.ts).
 */
@Injectable()
export class NotificationsService {
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: EventsPort,
    private readonly registry: NoticeRegistry,
  ) {}

  private built: NotificationSql | undefined;

  /** Built on first use: the threads module registers its part when it starts. */
  private get sql(): NotificationSql {
    this.built ??= notificationSql(this.registry.pasteSql());
    return this.built;
  }

  /** The member's notifications, newest first, NOTIFICATIONS_PAGE_SIZE at a time. */
  async list(userId: number, cursor?: string): Promise<NotificationsPage> {
    const { rows, nextCursor } = await keysetPage<NotificationRow>(
      (sql, params) => this.dataSource.query(sql, params),
      {
        alias: 'n',
        select: this.sql.columns,
        from: this.sql.from,
        where: `n.user_id = $1 AND ${this.sql.shown}`,
        params: [userId],
        pageSize: NOTIFICATIONS_PAGE_SIZE,
        cursor,
      },
    );
    return {
      notifications: rows.map((row) => toNotification(this.sql.ref, row)),
      nextCursor,
      unreadCount: await this.unreadCount(userId),
    };
  }

  /** The member's unread notifications, read from the counter (0 when there is none yet). */
  async unreadCount(userId: number, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [row]: Array<Row<NotificationCounter, 'unread'>> = await manager.query(
      'SELECT unread FROM notification_counters WHERE user_id = $1',
      [userId],
    );
    return row?.unread ?? 0;
  }

  /** Marks one of the member's notifications read (again is fine); another member's is a 404. */
  async markRead(userId: number, notificationId: number): Promise<UnreadCountResult> {
    const unreadCount = await this.dataSource.transaction(async (manager) => {
      // The counter first, as every writer of it does: concurrent reads and fan-outs queue up here.
      let unread = await this.lockCounter(manager, userId);
      const [, changed] = (await manager.query(
        'UPDATE notifications SET is_read = true WHERE id = $1 AND user_id = $2 AND NOT is_read',
        [notificationId, userId],
      )) as [unknown, number];
      if (changed > 0) {
        unread = await this.lowerCounter(manager, userId, changed);
      } else {
        const [own] = await manager.query('SELECT 1 FROM notifications WHERE id = $1 AND user_id = $2', [
          notificationId,
          userId,
        ]);
        if (!own) throw new NotFoundException(MESSAGING_MESSAGES.notificationNotFound);
      }
      return unread;
    });
    await this.publish(userId, { type: LIVE_EVENT.unreadCount, count: unreadCount });
    return { unreadCount };
  }

  /**
   * Marks read the member's notification about a source, if there is an unread one: opening a private
   * message reads its 'message' notification too.
   */
  async markSourceRead(userId: number, source: string): Promise<void> {
    const unreadCount = await this.dataSource.transaction(async (manager) => {
      await this.lockCounter(manager, userId);
      const [, changed] = (await manager.query(
        'UPDATE notifications SET is_read = true WHERE user_id = $1 AND source = $2 AND NOT is_read',
        [userId, source],
      )) as [unknown, number];
      return changed > 0 ? this.lowerCounter(manager, userId, changed) : null;
    });
    if (unreadCount !== null) {
      await this.publish(userId, { type: LIVE_EVENT.unreadCount, count: unreadCount });
    }
  }

  /** Marks every notification of the member read. */
  /**
   * Marks read member `userId`'s notifications about member `actorId` (who they just blocked: those leave
   * their list, so they must leave the unread count too).
   */
  async markActorRead(userId: number, actorId: number): Promise<void> {
    const unreadCount = await this.dataSource.transaction(async (manager) => {
      await this.lockCounter(manager, userId);
      const [, changed] = (await manager.query(
        'UPDATE notifications SET is_read = true WHERE user_id = $1 AND actor_id = $2 AND NOT is_read',
        [userId, actorId],
      )) as [unknown, number];
      return changed > 0 ? this.lowerCounter(manager, userId, changed) : null;
    });
    if (unreadCount !== null) {
      await this.publish(userId, { type: LIVE_EVENT.unreadCount, count: unreadCount });
    }
  }

  async markAllRead(userId: number): Promise<UnreadCountResult> {
    const unreadCount = await this.dataSource.transaction(async (manager) => {
      let unread = await this.lockCounter(manager, userId);
      const [, changed] = (await manager.query(
        'UPDATE notifications SET is_read = true WHERE user_id = $1 AND NOT is_read',
        [userId],
      )) as [unknown, number];
      if (changed > 0) unread = await this.lowerCounter(manager, userId, changed);
      return unread;
    });
    await this.publish(userId, { type: LIVE_EVENT.unreadCount, count: unreadCount });
    return { unreadCount };
  }

  /** Locks the member's counter row (made if missing) for this transaction; returns its value. */
  private async lockCounter(manager: EntityManager, userId: number): Promise<number> {
    const [row]: Array<Row<NotificationCounter, 'unread'>> = await manager.query(
      `INSERT INTO notification_counters (user_id) VALUES ($1)
       ON CONFLICT (user_id) DO UPDATE SET unread = notification_counters.unread
       RETURNING unread`,
      [userId],
    );
    return row!.unread;
  }

  private async lowerCounter(manager: EntityManager, userId: number, by: number): Promise<number> {
    const [[row]] = (await manager.query(
      'UPDATE notification_counters SET unread = GREATEST(unread - $2, 0) WHERE user_id = $1 RETURNING unread',
      [userId, by],
    )) as [Array<Row<NotificationCounter, 'unread'>>, number];
    return row!.unread;
  }

  /**
   * Creates the notifications in order, each in its own transaction with its counter (no transaction holds
   * two members' counters, so fan-outs cannot deadlock). An existing one for the source is skipped; each
   * is published with the unread count after its commit. Returns the ones created.
   */
  async createOnce(notifications: NewNotification[]): Promise<Notification[]> {
    const created: Notification[] = [];
    for (const item of notifications) {
      let result: { notification: Notification; unread: number } | undefined;
      try {
        result = await this.dataSource.transaction(async (manager) => {
          const [row]: Array<Row<NotificationEntity, 'id'>> = await manager.query(
            `INSERT INTO notifications (user_id, type, content, thread_id, actor_id, source)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (user_id, source) DO NOTHING RETURNING id`,
            [item.userId, item.type, item.content, item.threadId, item.actorId, item.source],
          );
          if (!row) return undefined;
          const [counter]: Array<Row<NotificationCounter, 'unread'>> = await manager.query(
            `INSERT INTO notification_counters (user_id, unread) VALUES ($1, 1)
             ON CONFLICT (user_id) DO UPDATE SET unread = notification_counters.unread + 1
             RETURNING unread`,
            [item.userId],
          );
          const [full]: NotificationRow[] = await manager.query(
            `SELECT ${this.sql.columns} FROM ${this.sql.from} WHERE n.id = $1`,
            [row.id],
          );
          return { notification: toNotification(this.sql.ref, full!), unread: counter!.unread };
        });
      } catch (error) {
        // The recipient's account or the paste was deleted since the job read them: nobody to tell.
        if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) continue;
        throw error;
      }
      if (!result) continue;
      created.push(result.notification);
      await this.publish(item.userId, { type: LIVE_EVENT.notification, notification: result.notification });
      await this.publish(item.userId, { type: LIVE_EVENT.unreadCount, count: result.unread });
    }
    return created;
  }

  /** Live events are best effort (a socket catches up by refetching): a failure is logged, never thrown. */
  private async publish(userId: number, event: LiveEvent): Promise<void> {
    try {
      await this.events.publish({ to: 'user', userId, event });
    } catch (error) {
      this.logger.warn(
        `Live ${event.type} event to user ${userId} not published: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
