import type { DataSource, EntityManager } from 'typeorm';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** The member's reputation ledger, oldest first. */
export async function ledgerForExport(db: Db, userId: number): Promise<unknown[]> {
  const rows: Array<{ entry: unknown }> = await db.query(
    'SELECT to_jsonb(l) AS entry FROM reputation_ledger l WHERE l.user_id = $1 ORDER BY l.id',
    [userId],
  );
  return rows.map((row) => row.entry);
}
