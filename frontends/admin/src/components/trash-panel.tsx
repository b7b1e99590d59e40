import { PAGES, type PublicAuthor } from '@termpaste/contracts';
import { OWN_POSTS_TEXTS } from '@termpaste/contracts/own-posts';
import type { TrashEntry } from '@termpaste/contracts/admin';
import { Badge, Button, TableCell, TableRow, relativeTime, useConfirm } from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { PagedTable } from './paged-table';
import { RotateCcw } from 'lucide-react';
import { Link } from 'react-router-dom';
import { trashQuery, useRestore } from '../api/admin';

const TEXTS = OWN_POSTS_TEXTS.trash;
const COLUMNS = ['Deleted', 'Post', 'Author', 'Deleted by', ''] as const;

function UserLink({ user }: { user: PublicAuthor | null }) {
  if (user === null) return <span className="adm-muted">Anonymous</span>;
  return <Link to={PAGES.profile(user.id)}>{user.username}</Link>;
}

function TrashRow({ entry }: { entry: TrashEntry }) {
  const confirm = useConfirm();
  const restore = useRestore();
  const byAuthor = entry.author !== null && entry.deletedBy?.id === entry.author.id;

  const onRestore = async () => {
    const confirmed = await confirm({
      title: entry.kind === 'paste' ? TEXTS.confirmRestorePaste : TEXTS.confirmRestoreReply,
      description: `${entry.title}: ${TEXTS.confirmRestoreDetail}`,
      confirmLabel: TEXTS.restore,
    });
    if (confirmed) restore.mutate(entry);
  };

  return (
    <TableRow data-testid={`trash-${entry.kind}-${entry.id}`}>
      <TableCell className="adm-nowrap adm-muted">
        <time dateTime={entry.deletedAt} title={new Date(entry.deletedAt).toLocaleString()}>
          {relativeTime(entry.deletedAt)}
        </time>
      </TableCell>
      <TableCell className="adm-trash-post">
        <span className="adm-trash-post__head">
          <Badge variant={entry.kind === 'paste' ? 'accent' : 'muted'}>
            {entry.kind === 'paste' ? TEXTS.paste : TEXTS.reply}
          </Badge>
          {entry.visibility !== 'public' && <Badge variant="warning">{entry.visibility}</Badge>}
          <span className="adm-trash-post__title">
            {entry.kind === 'reply' ? (
              <Link to={PAGES.thread(entry.threadRef)}>{entry.title}</Link>
            ) : (
              entry.title
            )}
          </span>
        </span>
        <code className="adm-trash-post__excerpt">{entry.excerpt || '""'}</code>
      </TableCell>
      <TableCell>
        <UserLink user={entry.author} />
      </TableCell>
      <TableCell>
        {byAuthor ? <span className="adm-muted">its author</span> : <UserLink user={entry.deletedBy} />}
      </TableCell>
      <TableCell>
        <Button
          variant="outline"
          size="sm"
          disabled={restore.isPending || restore.isSuccess}
          onClick={() => void onRestore()}
          aria-label={`${TEXTS.restore} ${entry.kind} ${entry.title}`}
        >
          <RotateCcw size={12} aria-hidden="true" />
          {TEXTS.restore}
        </Button>
      </TableCell>
    </TableRow>
  );
}

/**
 * The TRASH tab: pastes and replies deleted in the last 30 days (by their authors or by staff), newest
 * first, each with RESTORE (after a confirm prompt; audit-logged by the server).
 */
export function TrashPanel() {
  const trash = useInfiniteQuery(trashQuery());
  const entries = trash.data?.pages.flatMap((page) => page.entries) ?? null;

  return (
    <div className="adm-panel">
      <p className="adm-muted adm-intro">{TEXTS.intro}</p>
      <PagedTable
        label="Trash"
        columns={COLUMNS}
        items={entries}
        list={trash}
        row={(entry) => <TrashRow key={`${entry.kind}-${entry.id}`} entry={entry} />}
        loadFailed="Could not load the trash. Try again in a moment."
        empty={TEXTS.empty}
        shown={(count) => `Showing ${count} deleted post${count === 1 ? '' : 's'}`}
      />
    </div>
  );
}
