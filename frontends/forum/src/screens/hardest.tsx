import { Card } from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { featuredThreadsQuery } from '../api/forum';
import { HARDEST_COLUMNS, ThreadTable } from '../components/thread-table';

/** /hardest (SPEC §2): the featured pastes, newest first. */
export function HardestScreen() {
  const featured = useQuery(featuredThreadsQuery);
  const threads = featured.data ?? null;
  return (
    <Card
      title="HARDEST POSTS"
      className="forum-wide"
      actions={threads && <span className="forum-muted forum-count">{threads.length} featured</span>}
    >
      {featured.isError ? (
        <p className="forum-error">Could not load featured pastes. Try again in a moment.</p>
      ) : threads && threads.length === 0 ? (
        <p className="forum-muted">No featured posts yet. Check back soon!</p>
      ) : (
        <ThreadTable threads={threads} label="Featured pastes" columns={HARDEST_COLUMNS} />
      )}
    </Card>
  );
}
