import { PAGES } from '@termpaste/contracts';
import {
  CAPPED_REPUTATION_REASONS,
  type CappedReputationReason,
  type ReputationEntry,
  REPUTATION_TEXTS,
  type ReputationToday,
} from '@termpaste/contracts/reputation';
import {
  Card,
  cx,
  ListFooter,
  relativeTime,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  TableSkeletonRows,
} from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { reputationLedgerQuery } from '../api/reputation';

/** The capped reasons as the "today" line names them. */
const TODAY_LABELS: Record<CappedReputationReason, string> = {
  paste: 'pastes',
  reply: 'replies',
  chat: 'chat',
  vote: 'votes received',
};

/** Points as the ledger shows them: always signed (+5, +0, -1). */
export function signedPoints(points: number): string {
  return points < 0 ? `${points}` : `+${points}`;
}

/** What earned the points: a link to the paste (at the reply), or what it was when there is none. */
function Source({ entry }: { entry: ReputationEntry }) {
  if (entry.threadId !== null) {
    const to = PAGES.thread(entry.threadId) + (entry.replyId !== null ? `#reply-${entry.replyId}` : '');
    return (
      <Link to={to} className="forum-title">
        {entry.threadTitle}
      </Link>
    );
  }
  if (entry.reason === 'chat') {
    return (
      <Link to={PAGES.chat} className="forum-muted">
        global chat
      </Link>
    );
  }
  if (entry.reason === 'opening') return <span className="forum-muted">before the ledger</span>;
  return <span className="forum-muted">deleted</span>;
}

function TodayLine({ today }: { today: ReputationToday }) {
  return (
    <p className="forum-muted forum-ledger__today">
      Today (UTC):{' '}
      {CAPPED_REPUTATION_REASONS.map(
        (reason) => `${TODAY_LABELS[reason]} ${today[reason].earned}/${today[reason].cap}`,
      ).join(' · ')}
    </p>
  );
}

/**
 * A member's reputation ledger (for the member and admins: the caller decides, see
 * canReadReputationLedger): when, why, how many points and on what, newest first, LOAD MORE for older.
 */
export function ReputationLedger({ userId }: { userId: number }) {
  const ledger = useInfiniteQuery(reputationLedgerQuery(userId));
  const entries = ledger.data?.pages.flatMap((page) => page.entries) ?? null;
  const first = ledger.data?.pages[0];

  return (
    <Card title={REPUTATION_TEXTS.title}>
      {first && <TodayLine today={first.today} />}
      {ledger.isError ? (
        <p className="forum-error">Could not load the ledger. Try again in a moment.</p>
      ) : entries && entries.length === 0 ? (
        <p className="forum-muted">{REPUTATION_TEXTS.empty}</p>
      ) : (
        <Table aria-label="Reputation ledger" className="forum-ledger">
          <TableHeader>
            <TableRow>
              <TableHead>When</TableHead>
              <TableHead>Reason</TableHead>
              <TableHead className="forum-num">Points</TableHead>
              <TableHead>Source</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {entries === null ? (
              <TableSkeletonRows columns={4} rows={5} widths={['60%', '50%', '30%', '80%']} />
            ) : (
              entries.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell className="forum-muted forum-nowrap">
                    <time dateTime={entry.createdAt} title={new Date(entry.createdAt).toLocaleString()}>
                      {relativeTime(entry.createdAt)}
                    </time>
                  </TableCell>
                  <TableCell className="forum-nowrap">
                    {REPUTATION_TEXTS.reasons[entry.reason]}
                    {entry.capped && <span className="forum-muted"> ({REPUTATION_TEXTS.capReached})</span>}
                  </TableCell>
                  <TableCell
                    className={cx(
                      'forum-num',
                      'forum-ledger__points',
                      entry.points > 0 && 'forum-ledger__points--gain',
                      entry.points < 0 && 'forum-ledger__points--loss',
                    )}
                  >
                    {signedPoints(entry.points)}
                  </TableCell>
                  <TableCell className="forum-title-cell">
                    <Source entry={entry} />
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      )}
      {ledger.hasNextPage && (
        <ListFooter className="forum-footer" list={ledger}>
          Showing {entries?.length ?? 0} entries · total {first?.total ?? 0}
        </ListFooter>
      )}
    </Card>
  );
}
