import type { DataSource, EntityManager } from 'typeorm';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** The file of a member's data export that holds their votes. */
export const VOTES_FILE = 'votes.json';

/** The votes the member cast, oldest first (taken back by VotesService.takeBackAllOf on deletion). */
export async function votesForExport(db: Db, userId: number): Promise<unknown[]> {
  const rows: Array<{ vote: unknown }> = await db.query(
    'SELECT to_jsonb(v) AS vote FROM votes v WHERE v.user_id = $1 ORDER BY v.id',
    [userId],
  );
  return rows.map((row) => row.vote);
}
