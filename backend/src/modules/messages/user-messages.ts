import type { DataSource, EntityManager } from 'typeorm';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** The private messages a member sent and received (support requests included), oldest first. */
export async function messagesForExport(db: Db, userId: number): Promise<unknown[]> {
  const rows: Array<{ message: unknown }> = await db.query(
    `SELECT to_jsonb(m) || jsonb_build_object(
              'direction', CASE WHEN m.sender_id = $1 THEN 'sent' ELSE 'received' END) AS message
     FROM private_messages m
     WHERE m.sender_id = $1 OR m.recipient_id = $1 ORDER BY m.id`,
    [userId],
  );
  return rows.map((row) => row.message);
}

/** Deletes every message the member sent or received, in the account deletion's transaction. */
export async function deleteMessagesOf(manager: EntityManager, userId: number): Promise<void> {
  await manager.query('DELETE FROM private_messages WHERE sender_id = $1 OR recipient_id = $1', [userId]);
}
