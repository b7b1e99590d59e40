import type { DataSource, EntityManager } from 'typeorm';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** The member's SSH public keys, for their data export: titles, keys, fingerprints, dates. */
export async function sshKeysForExport(db: Db, userId: number): Promise<unknown[]> {
  return db.query(
    `SELECT id, title, key_type, public_key, fingerprint, created_at
     FROM ssh_keys WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
}
