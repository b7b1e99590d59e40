import { Injectable, NotFoundException } from '@nestjs/common';
import { POST_MESSAGES, REPUTATION_LEDGER_PAGE_SIZE, type ReputationLedgerPage } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { keysetPage } from '../../common/keyset-cursor.js';
import { ledgerColumns, ledgerFrom, type LedgerRow, toLedgerEntry } from '../ranks/user-ledger.js';
import { ReputationService } from '../ranks/reputation.service.js';
import { readablePasteJoin, replyJoin } from '../pastes/post-sql.js';
import { REF_COLUMNS, refOf, type RefRow } from '../pastes/visibility.js';
import { UsersService } from '../users/users.service.js';

const HISTORY_COLUMNS = `${ledgerColumns('l')}, t.id AS "pasteId", t.title AS "pasteTitle", ${REF_COLUMNS('t')},
  CASE WHEN t.id IS NOT NULL THEN r.id END AS "replyId"`;
/** The ledger's rows with what each was for, as far as its reader (`$2`) may read the paste. */
const HISTORY_FROM = `${ledgerFrom('l')} ${readablePasteJoin('t', 'l.thread_id', '$2::int')} ${replyJoin('r', 'l.reply_id')}`;

/** A ledger row with its paste and reply: NULL where the reader may not read the paste (or it is gone). */
type HistoryRow = LedgerRow & {
  pasteId: number | null;
  pasteTitle: string | null;
  replyId: number | null;
} & RefRow;

function toEntry({
  pasteId,
  pasteTitle,
  replyId,
  pasteKey,
  pasteVisibility,
  pasteBurns,
  ...row
}: HistoryRow) {
  const threadId = pasteId === null ? null : refOf(pasteId, { pasteKey, pasteVisibility, pasteBurns });
  return toLedgerEntry(row, { threadId, threadTitle: pasteTitle, replyId });
}

/** A user's reputation history: the ranks module's ledger, each row with the paste it names. */
@Injectable()
export class ReputationHistoryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly reputation: ReputationService,
  ) {}

  /**
   * `readerId`'s view of member `userId`'s ledger, newest first, with their total and today's earnings
   * against the caps: a row's paste named only when the reader may read it. 404 when there is no such
   * member. Who may read it is the caller's to check (canReadReputationLedger).
   */
  async ledger(userId: number, cursor: string | undefined, readerId: number): Promise<ReputationLedgerPage> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFoundException(POST_MESSAGES.userNotFound);
    const { rows, nextCursor } = await keysetPage<HistoryRow>(
      (sql, params) => this.dataSource.query(sql, params),
      {
        alias: 'l',
        select: HISTORY_COLUMNS,
        from: HISTORY_FROM,
        where: 'l.user_id = $1',
        params: [userId, readerId],
        pageSize: REPUTATION_LEDGER_PAGE_SIZE,
        cursor,
      },
    );
    return {
      total: user.reputation,
      today: await this.reputation.today(userId),
      entries: rows.map(toEntry),
      nextCursor,
    };
  }
}
