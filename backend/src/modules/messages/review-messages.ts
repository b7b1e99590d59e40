import type { DataSource, EntityManager } from 'typeorm';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Message } from './entities/message.entity.js';

type Db = Pick<DataSource | EntityManager, 'query'>;

const REVIEW_COLUMNS = ['id', 'senderId', 'recipientId', 'subject', 'content', 'createdAt'] as const;
const REVIEW_SELECT = selectColumns(Message, 'm', REVIEW_COLUMNS);

/** A private message as a flag and the review queue read it. */
export type ReviewedMessage = Row<Message, (typeof REVIEW_COLUMNS)[number]>;

/**
 * Private messages `ids` (those still there): the moderation module's way to this table. Only a
 * message's recipient may flag it; staff read it in the review queue.
 */
export async function messagesForReview(db: Db, ids: readonly number[]): Promise<ReviewedMessage[]> {
  if (ids.length === 0) return [];
  return db.query(`SELECT ${REVIEW_SELECT} FROM private_messages m WHERE m.id = ANY ($1::int[])`, [ids]);
}
