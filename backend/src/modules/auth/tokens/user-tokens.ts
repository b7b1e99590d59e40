import type { DataSource, EntityManager } from 'typeorm';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** The member's access tokens: names, scopes and dates only, never a secret or its hash. */
export async function tokensForExport(db: Db, userId: number): Promise<unknown[]> {
  return db.query(
    `SELECT id, name, scopes, created_at, last_used_at, expires_at, revoked_at, revoked_reason
     FROM personal_access_tokens WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
}
