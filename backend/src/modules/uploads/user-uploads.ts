import type { EntityManager } from 'typeorm';

/**
 * Forgets the member's unclaimed uploads in the account deletion's transaction; returns their keys,
 * whose stored objects the caller removes once it committed.
 */
export async function forgetUploadsOf(manager: EntityManager, userId: number): Promise<string[]> {
  const rows: Array<{ key: string }> = await manager.query(
    'WITH gone AS (DELETE FROM pending_uploads WHERE user_id = $1 RETURNING key) SELECT key FROM gone',
    [userId],
  );
  return rows.map((row) => row.key);
}
