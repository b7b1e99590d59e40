import type { Notification as NotificationShape, PublicAuthor } from '@termpaste/contracts';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Notification } from './entities/notification.entity.js';
import type { NoticePasteSql } from './notice-registry.js';

const COLUMNS = ['id', 'type', 'content', 'isRead', 'createdAt'] as const;

/** The columns of notification `alias`. */
export const notificationColumns = (alias: string): string => selectColumns(Notification, alias, COLUMNS);

/**
 * A notification with its actor, and its paste's number while its member may read it (`readableId`)
 * beside the paste SQL's ref columns.
 */
export type NotificationRow = Row<Notification, (typeof COLUMNS)[number]> & {
  createdMicros: string;
  actor: PublicAuthor | null;
  readableId: number | null;
};

export function toNotification(ref: NoticePasteSql['ref'], row: NotificationRow): NotificationShape {
  return {
    id: row.id,
    type: row.type,
    content: row.content,
    isRead: row.isRead,
    createdAt: row.createdAt.toISOString(),
    threadId: row.readableId === null ? null : ref(row.readableId, row),
    actor: row.actor,
  };
}
