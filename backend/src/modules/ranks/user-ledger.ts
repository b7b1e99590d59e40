import type { ReputationReason } from '@termpaste/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { createdMicros } from '../../common/keyset-cursor.js';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** The member's reputation ledger, oldest first. */
export async function ledgerForExport(db: Db, userId: number): Promise<unknown[]> {
  const rows: Array<{ entry: unknown }> = await db.query(
    'SELECT to_jsonb(l) AS entry FROM reputation_ledger l WHERE l.user_id = $1 ORDER BY l.id',
    [userId],
  );
  return rows.map((row) => row.entry);
}

/** A ledger row's own columns, as ledgerColumns reads them (`createdMicros` for a keyset page). */
export interface LedgerRow {
  id: number;
  points: number;
  reason: ReputationReason;
  capped: boolean;
  created_at: Date;
  createdMicros: string;
}

/** The ledger as `alias` in a listing's FROM, which joins what each row names (the paste, the reply). */
export const ledgerFrom = (alias: string) => `reputation_ledger ${alias}`;

/** The columns of LedgerRow, over ledgerFrom's `alias`. */
export const ledgerColumns = (alias: string) =>
  `${alias}.id, ${alias}.points, ${alias}.reason, ${alias}.capped, ${alias}.created_at, ${createdMicros(alias)} AS "createdMicros"`;
