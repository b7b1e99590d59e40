import type { DataSource, EntityManager } from 'typeorm';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** The sign-in providers linked to the member's account. */
export async function identitiesForExport(db: Db, userId: number): Promise<unknown[]> {
  return db.query(
    `SELECT provider, subject, email::text AS email, created_at, last_used_at
     FROM user_identities WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
}
