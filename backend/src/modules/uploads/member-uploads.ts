import type { EntityManager } from 'typeorm';

/**
 * Forgets the member's unclaimed uploads in the account deletion's transaction; returns their keys,
 * whose stored objects the caller removes once it committed.
 */
export async function forgetUploadsOf(manager: EntityManager, userId: number): Promise<string[]> {
  const rows: Array<{ key: string }> = await manager.query(
    'DELETE FROM pending_uploads WHERE user_id = $1 RETURNING key',
    [userId],
  );
  return rows.map((row) => row.key);
}
