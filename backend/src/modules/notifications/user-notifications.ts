import type { DataSource, EntityManager } from 'typeorm';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** The file of a member's data export that holds their notifications. */
export const NOTIFICATIONS_FILE = 'notifications.json';

/** The member's notifications, oldest first (they go with the account by its foreign key). */
export async function notificationsForExport(db: Db, userId: number): Promise<unknown[]> {
  const rows: Array<{ notification: unknown }> = await db.query(
    'SELECT to_jsonb(n) AS notification FROM notifications n WHERE n.user_id = $1 ORDER BY n.id',
    [userId],
  );
  return rows.map((row) => row.notification);
}
