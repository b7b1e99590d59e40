import type { EntityManager } from 'typeorm';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { PendingUpload } from './entities/pending-upload.entity.js';

/**
 * Forgets the member's unclaimed uploads in the account deletion's transaction; returns their keys,
 * whose stored objects the caller removes once it committed.
 */
export async function forgetUploadsOf(manager: EntityManager, userId: number): Promise<string[]> {
  const rows: Array<Row<PendingUpload, 'key'>> = await manager.query(
    `WITH gone AS (DELETE FROM pending_uploads WHERE user_id = $1 RETURNING key)
     SELECT ${selectColumns(PendingUpload, 'gone', ['key'])} FROM gone`,
    [userId],
  );
  return rows.map((row) => row.key);
}
