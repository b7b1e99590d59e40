import { PAGES, TEXTS } from '@termpaste/contracts';
import { type RevisionSummary } from '@termpaste/contracts/revisions';
import {
  Card,
  relativeTime,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { revisionQuery, revisionsQuery, type RevisionsOf } from '../api/revisions';
import { AuthorLink } from '../components/author';
import { NotFoundCard } from '../components/not-found';
import { type DiffLayout, RevisionDiff } from '../components/revision-diff';
import { isNotFoundError, isRecordId } from '../lib/not-found';

/** The pair compared: `from` older than `to`; by default the latest against the one before. */
interface Pair {
  from: number;
  to: number;
}

function VersionsTable({
  revisions,
  pair,
  onPick,
  reply,
}: {
  revisions: RevisionSummary[];
  pair: Pair;
  onPick: (pair: Pair) => void;
  reply: boolean;
}) {
  return (
    <Table aria-label="Versions" className="rev-table">
      <TableHeader>
        <TableRow>
          <TableHead>From</TableHead>
          <TableHead>To</TableHead>
          <TableHead>Version</TableHead>
          <TableHead>When</TableHead>
          <TableHead>Editor</TableHead>
          <TableHead className="forum-num">Lines</TableHead>
          {!reply && <TableHead>Title</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {revisions.map((revision) => (
          <TableRow key={revision.n} aria-current={revision.n === pair.to ? 'true' : undefined}>
            <TableCell>
              <input
                type="radio"
                name="rev-from"
                className="rev-pick"
                aria-label={`Compare from version ${revision.n}`}
                checked={pair.from === revision.n}
                disabled={revision.n >= pair.to}
                onChange={() => onPick({ ...pair, from: revision.n })}
              />
            </TableCell>
            <TableCell>
              <input
                type="radio"
                name="rev-to"
                className="rev-pick"
                aria-label={`Compare to version ${revision.n}`}
                checked={pair.to === revision.n}
                disabled={revision.n <= pair.from}
                onChange={() => onPick({ ...pair, to: revision.n })}
              />
            </TableCell>
            <TableCell>
              v{revision.n}
              {revision.n === 1 && <span className="forum-muted"> (original)</span>}
            </TableCell>
            <TableCell className="forum-muted forum-nowrap">
              <time dateTime={revision.createdAt} title={new Date(revision.createdAt).toLocaleString()}>
                {relativeTime(revision.createdAt)}
              </time>
            </TableCell>
            <TableCell>
              <AuthorLink author={revision.editor} />
            </TableCell>
            <TableCell className="forum-num">
              <span className="rev-added">+{revision.linesAdded}</span>{' '}
              <span className="rev-removed">−{revision.linesRemoved}</span>
            </TableCell>
            {!reply && <TableCell className="forum-title-cell">{revision.title}</TableCell>}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The two versions' texts, then their diff. */
function PairDiff({ of, pair }: { of: RevisionsOf; pair: Pair }) {
  const [layout, setLayout] = useState<DiffLayout>('unified');
  const from = useQuery(revisionQuery(of, pair.from));
  const to = useQuery(revisionQuery(of, pair.to));
  if (from.isError || to.isError) return <p className="forum-error">Could not load these versions.</p>;
  if (!from.data || !to.data) return <Spinner label="Loading versions..." />;
  return <RevisionDiff from={from.data} to={to.data} layout={layout} onLayout={setLayout} />;
}

function Versions({ of, back }: { of: RevisionsOf; back: string }) {
  const list = useQuery(revisionsQuery(of));
  const [picked, setPicked] = useState<Pair | null>(null);
  const what = of.kind === 'thread' ? 'paste' : 'reply';

  if (isNotFoundError(list.error)) {
    return <NotFoundCard text={of.kind === 'thread' ? TEXTS.threadNotFound : 'Reply not found [404]'} />;
  }
  if (list.isError && !list.data) {
    return (
      <Card titleLevel={1} title="ERROR">
        <p className="forum-error">Could not load the versions. Try again in a moment.</p>
      </Card>
    );
  }
  if (!list.data) return <Spinner label="Loading versions..." />;
  const { revisions } = list.data;
  const latest = revisions[0]!.n;
  const pair = picked ?? { from: Math.max(1, latest - 1), to: latest };
  const title = of.kind === 'thread' ? revisions[0]!.title : null;

  return (
    <div className="forum-stack">
      <div>
        <Link to={back} className="tp-button tp-button--ghost tp-button--sm">
          <ArrowLeft size={14} aria-hidden="true" />
          BACK TO THE {what.toUpperCase()}
        </Link>
      </div>
      <Card
        titleLevel={1}
        title={of.kind === 'thread' ? `REVISIONS: ${title ?? ''}` : `REVISIONS OF REPLY #${of.id}`}
      >
        {revisions.length === 1 ? (
          <p className="forum-muted">This {what} has not been edited: its one version is the original.</p>
        ) : (
          <VersionsTable revisions={revisions} pair={pair} onPick={setPicked} reply={of.kind === 'reply'} />
        )}
      </Card>
      {revisions.length > 1 && (
        <Card title="DIFF">
          <PairDiff key={`${pair.from}-${pair.to}`} of={of} pair={pair} />
        </Card>
      )}
    </div>
  );
}

/**
 * /thread/{id}/revisions (issue 16): the paste's versions (time, editor, lines added and removed) and
 * the diff between any two, unified or side by side; `?reply={id}`: one of its replies' versions.
 */
export function RevisionsScreen() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const reply = params.get('reply');
  if (!isRecordId(id) || (reply !== null && !isRecordId(reply))) {
    return <NotFoundCard text={TEXTS.threadNotFound} />;
  }
  const of: RevisionsOf =
    reply === null ? { kind: 'thread', id: Number(id) } : { kind: 'reply', id: Number(reply) };
  const back = reply === null ? PAGES.thread(id) : `${PAGES.thread(id)}#reply-${reply}`;
  return <Versions key={`${of.kind}-${of.id}`} of={of} back={back} />;
}
