import type { DataSource, EntityManager } from 'typeorm';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** The member's account as their export holds it: every column but the password's hash. */
export async function profileForExport(db: Db, userId: number): Promise<Record<string, unknown> | null> {
  const [row]: Array<{ profile: Record<string, unknown> }> = await db.query(
    `SELECT to_jsonb(u) - 'password_hash' AS profile FROM users u WHERE u.id = $1`,
    [userId],
  );
  return row?.profile ?? null;
}
