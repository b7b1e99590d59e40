import type { DataSource, EntityManager } from 'typeorm';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** A private message as a flag and the review queue read it. */
export interface ReviewedMessage {
  id: number;
  senderId: number | null;
  recipientId: number | null;
  subject: string;
  content: string;
  createdAt: Date;
}

/**
 * Private messages `ids` (those still there): the moderation module's way to this table. Only a
 * message's recipient may flag it; staff read it in the review queue.
 */
export async function messagesForReview(db: Db, ids: readonly number[]): Promise<ReviewedMessage[]> {
  if (ids.length === 0) return [];
  const rows: Array<{
    id: number;
    sender_id: number | null;
    recipient_id: number | null;
    subject: string;
    content: string;
    created_at: Date;
  }> = await db.query(
    `SELECT id, sender_id, recipient_id, subject, content, created_at
     FROM private_messages WHERE id = ANY ($1::int[])`,
    [ids],
  );
  return rows.map((row) => ({
    id: row.id,
    senderId: row.sender_id,
    recipientId: row.recipient_id,
    subject: row.subject,
    content: row.content,
    createdAt: row.created_at,
  }));
}
