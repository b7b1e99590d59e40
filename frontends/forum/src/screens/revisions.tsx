import { PAGES, parsePasteRef, TEXTS } from '@termpaste/contracts';
import {
  type PrunedRange,
  purgeRefusal,
  type RevisionSummary,
  REVISIONS_TEXTS,
} from '@termpaste/contracts/revisions';
import {
  Button,
  Card,
  relativeTime,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  useConfirm,
  useCurrentUser,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Trash2 } from 'lucide-react';
import { Fragment, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { pasteQuery } from '../api/pastes';
import { revisionQuery, revisionsQuery, type RevisionsOf, usePurgeRevision } from '../api/revisions';
import { AuthorLink } from '../components/author';
import { NotFoundCard } from '../components/not-found';
import { type DiffLayout, RevisionDiff } from '../components/revision-diff';
import { isNotFoundError, isPasteRef, isRecordId } from '../lib/not-found';

/** The pair compared: `from` older than `to`; by default the latest against the one before. */
interface Pair {
  from: number;
  to: number;
}

/** The newest version before `n` whose text is there (not removed), if any. */
function readableBefore(revisions: RevisionSummary[], n: number): number | undefined {
  return revisions.find((revision) => revision.n < n && !revision.removed)?.n;
}

/** A row for the versions an edit pruned, in place of them. */
function PrunedRow({ range, columns }: { range: PrunedRange; columns: number }) {
  return (
    <TableRow className="rev-gap">
      <TableCell colSpan={columns} className="forum-muted">
        <span className="rev-gap__text">{REVISIONS_TEXTS.pruned(range.from, range.to)}</span>
      </TableCell>
    </TableRow>
  );
}

function VersionsTable({
  revisions,
  pruned,
  pair,
  onPick,
  reply,
  onPurge,
}: {
  revisions: RevisionSummary[];
  pruned: PrunedRange[];
  pair: Pair;
  onPick: (pair: Pair) => void;
  reply: boolean;
  /** Removes a version (its author or an admin); undefined: the member may not. */
  onPurge?: (n: number) => void;
}) {
  const latest = revisions[0]!.n;
  const columns = (reply ? 6 : 7) + (onPurge ? 1 : 0);
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
          {onPurge && (
            <TableHead>
              <span className="tp-sr-only">Remove</span>
            </TableHead>
          )}
        </TableRow>
      </TableHeader>
      <TableBody>
        {revisions.map((revision) => (
          <Fragment key={revision.n}>
            <TableRow
              id={reply ? undefined : `v${revision.n}`}
              aria-current={revision.n === pair.to ? 'true' : undefined}
              className={revision.removed ? 'rev-row--removed' : undefined}
            >
              <TableCell>
                <input
                  type="radio"
                  name="rev-from"
                  className="rev-pick"
                  aria-label={`Compare from version ${revision.n}`}
                  checked={pair.from === revision.n}
                  disabled={revision.removed || revision.n >= pair.to}
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
                  disabled={revision.removed || revision.n <= pair.from}
                  onChange={() => onPick({ ...pair, to: revision.n })}
                />
              </TableCell>
              <TableCell>
                v{revision.n}
                {revision.n === 1 && <span className="forum-muted"> (original)</span>}
                {revision.removed && <span className="rev-removed"> {REVISIONS_TEXTS.removedVersion}</span>}
              </TableCell>
              <TableCell className="forum-muted forum-nowrap">
                <time dateTime={revision.createdAt} title={new Date(revision.createdAt).toLocaleString()}>
                  {relativeTime(revision.createdAt)}
                </time>
              </TableCell>
              <TableCell>
                <AuthorLink author={revision.editor} />
                {revision.suggestionReplyId != null && (
                  <span className="forum-muted rev-credit">
                    suggested by <AuthorLink author={revision.suggestedBy ?? null} />
                  </span>
                )}
              </TableCell>
              <TableCell className="forum-num">
                <span className="rev-added">+{revision.linesAdded}</span>{' '}
                <span className="rev-removed">−{revision.linesRemoved}</span>
              </TableCell>
              {!reply && (
                <TableCell className="forum-title-cell">
                  {revision.removed ? <span className="forum-muted">—</span> : revision.title}
                </TableCell>
              )}
              {onPurge && (
                <TableCell>
                  {!revision.removed && revision.n !== latest && (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={REVISIONS_TEXTS.purgeLabel(revision.n)}
                      title={REVISIONS_TEXTS.purgeLabel(revision.n)}
                      onClick={() => onPurge(revision.n)}
                    >
                      <Trash2 size={14} aria-hidden="true" />
                    </Button>
                  )}
                </TableCell>
              )}
            </TableRow>
            {pruned
              .filter((range) => range.to + 1 === revision.n)
              .map((range) => (
                <PrunedRow key={`pruned-${range.from}`} range={range} columns={columns} />
              ))}
          </Fragment>
        ))}
      </TableBody>
    </Table>
  );
}

/** What lies between the two versions compared and is not there: pruned ranges, removed versions. */
function missingBetween(revisions: RevisionSummary[], pruned: PrunedRange[], pair: Pair): string | null {
  const ranges = pruned
    .filter((range) => range.from > pair.from && range.to < pair.to)
    .reverse()
    .map((range) => REVISIONS_TEXTS.pruned(range.from, range.to));
  const removed = revisions
    .filter((revision) => revision.removed && revision.n > pair.from && revision.n < pair.to)
    .map((revision) => revision.n)
    .reverse();
  return ranges.length || removed.length ? REVISIONS_TEXTS.between(ranges, removed) : null;
}

/** The two versions' texts, then their diff (and what lies between them that is not there). */
function PairDiff({ of, pair, missing }: { of: RevisionsOf; pair: Pair; missing: string | null }) {
  const [layout, setLayout] = useState<DiffLayout>('unified');
  const from = useQuery(revisionQuery(of, pair.from));
  const to = useQuery(revisionQuery(of, pair.to));
  if (from.isError || to.isError) return <p className="forum-error">Could not load these versions.</p>;
  if (!from.data || !to.data) return <Spinner label="Loading versions..." />;
  return (
    <>
      {missing && <p className="forum-muted rev-missing">{missing}</p>}
      <RevisionDiff from={from.data} to={to.data} layout={layout} onLayout={setLayout} />
    </>
  );
}

/** The post's author, from its paste's page (a reply's among its replies), to offer REMOVE to them. */
function useAuthorId(of: RevisionsOf, threadId: string): number | null | undefined {
  const thread = useQuery(pasteQuery(threadId));
  if (!thread.data) return undefined;
  if (of.kind === 'thread') return thread.data.author?.id ?? null;
  return thread.data.replies.find((reply) => reply.id === of.id)?.author?.id ?? null;
}

function Versions({ of, back, threadId }: { of: RevisionsOf; back: string; threadId: string }) {
  const list = useQuery(revisionsQuery(of));
  const [picked, setPicked] = useState<Pair | null>(null);
  const what = of.kind === 'thread' ? 'paste' : 'reply';
  const { user } = useCurrentUser();
  const authorId = useAuthorId(of, threadId);
  const confirm = useConfirm();
  const purge = usePurgeRevision(of);
  const mayPurge = user !== null && authorId !== undefined && purgeRefusal(user, { authorId }) === null;
  const onPurge = async (n: number) => {
    const confirmed = await confirm({
      title: REVISIONS_TEXTS.purgeTitle(n),
      description: REVISIONS_TEXTS.purgeDescription,
      confirmLabel: REVISIONS_TEXTS.purgeConfirm,
      destructive: true,
    });
    if (!confirmed) return;
    purge.mutate(n, { onSuccess: () => setPicked(null) });
  };

  if (isNotFoundError(list.error)) {
    return <NotFoundCard text={of.kind === 'thread' ? TEXTS.pasteNotFound : 'Reply not found [404]'} />;
  }
  if (list.isError && !list.data) {
    return (
      <Card titleLevel={1} title="ERROR">
        <p className="forum-error">Could not load the versions. Try again in a moment.</p>
      </Card>
    );
  }
  if (!list.data) return <Spinner label="Loading versions..." />;
  const { revisions, pruned } = list.data;
  const latest = revisions[0]!.n;
  const pair = picked ?? { from: readableBefore(revisions, latest) ?? latest, to: latest };
  const comparable = revisions.filter((revision) => !revision.removed).length > 1;
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
          <VersionsTable
            revisions={revisions}
            pruned={pruned}
            pair={pair}
            onPick={setPicked}
            reply={of.kind === 'reply'}
            onPurge={mayPurge ? (n) => void onPurge(n) : undefined}
          />
        )}
      </Card>
      {revisions.length > 1 && comparable && (
        <Card title="DIFF">
          <PairDiff
            key={`${pair.from}-${pair.to}`}
            of={of}
            pair={pair}
            missing={missingBetween(revisions, pruned, pair)}
          />
        </Card>
      )}
    </div>
  );
}

/**
 * /thread/{id}/revisions: the paste's versions and the diff between any two; `?reply={id}`: a reply's
 * versions.
 */
export function RevisionsScreen() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const reply = params.get('reply');
  if (!isPasteRef(id) || (reply !== null && !isRecordId(reply))) {
    return <NotFoundCard text={TEXTS.pasteNotFound} />;
  }
  const of: RevisionsOf =
    reply === null ? { kind: 'thread', id: parsePasteRef(id)! } : { kind: 'reply', id: Number(reply) };
  const back = reply === null ? PAGES.thread(id) : `${PAGES.thread(id)}#reply-${reply}`;
  return <Versions key={`${of.kind}-${of.id}`} of={of} back={back} threadId={id} />;
}
