import type { ReputationEntry as ReputationEntryView } from '@termpaste/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { createdMicros } from '../../common/keyset-cursor.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { ReputationEntry } from './entities/reputation-entry.entity.js';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** The member's reputation ledger, oldest first. */
export async function ledgerForExport(db: Db, userId: number): Promise<unknown[]> {
  const rows: Array<{ entry: unknown }> = await db.query(
    'SELECT to_jsonb(l) AS entry FROM reputation_ledger l WHERE l.user_id = $1 ORDER BY l.id',
    [userId],
  );
  return rows.map((row) => row.entry);
}

const LEDGER_PROPERTIES = ['id', 'points', 'reason', 'capped', 'createdAt'] as const;

/** A ledger row's own columns, as ledgerColumns reads them (`createdMicros` for a keyset page). */
export type LedgerRow = Row<ReputationEntry, (typeof LEDGER_PROPERTIES)[number]> & { createdMicros: string };

/** The ledger as `alias` in a listing's FROM, which joins what each row names (the paste, the reply). */
export const ledgerFrom = (alias: string) => `reputation_ledger ${alias}`;

/** The columns of LedgerRow, over ledgerFrom's `alias`. */
export const ledgerColumns = (alias: string) =>
  `${selectColumns(ReputationEntry, alias, LEDGER_PROPERTIES)}, ${createdMicros(alias)} AS "createdMicros"`;

/** A ledger row as contracts show it, with what it was for (`about`: the paste and reply, as readable). */
export function toLedgerEntry(
  { createdMicros: _cursor, createdAt, ...row }: LedgerRow,
  about: Pick<ReputationEntryView, 'threadId' | 'threadTitle' | 'replyId'>,
): ReputationEntryView {
  return { ...row, createdAt: createdAt.toISOString(), ...about };
}
