import { PAGES } from '@termpaste/contracts';
import { Card, ListFooter } from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { recentThreadsQuery } from '../api/forum';
import { ThreadTable } from '../components/thread-table';

/** Home (SPEC §2): pinned pastes apart, the rest newest first, 50 at a time. */
export function HomeScreen() {
  const recent = useInfiniteQuery(recentThreadsQuery);

  const addPaste = (
    <Link to={PAGES.newThread} className="tp-button tp-button--primary tp-button--sm">
      ADD PASTE
    </Link>
  );

  if (recent.isError && !recent.data) {
    return (
      <Card title="RECENT PASTES" actions={addPaste}>
        <p className="forum-error">Could not load pastes. Try again in a moment.</p>
      </Card>
    );
  }

  const pages = recent.data?.pages;
  const pinned = pages?.[0]?.pinned ?? [];
  const threads = pages?.flatMap((page) => page.threads) ?? null;
  const total = pages?.at(-1)?.total ?? 0;

  if (threads && threads.length === 0 && pinned.length === 0) {
    return (
      <Card title="RECENT PASTES" actions={addPaste}>
        <div className="forum-empty">
          <p>No pastes yet. Be the first to add one!</p>
          <Link to={PAGES.newThread} className="tp-button tp-button--primary tp-button--md">
            ADD FIRST PASTE
          </Link>
        </div>
      </Card>
    );
  }

  return (
    <div className="forum-stack">
      {pinned.length > 0 && (
        <Card title="Pinned Pastes">
          <ThreadTable threads={pinned} label="Pinned Pastes" />
        </Card>
      )}
      <Card title="RECENT PASTES" actions={addPaste}>
        <ThreadTable threads={threads} label="Recent pastes" />
        {threads && (
          <ListFooter className="forum-footer" list={recent}>
            Showing {pinned.length + threads.length} of {total} total pastes
          </ListFooter>
        )}
      </Card>
    </div>
  );
}
