import { PASTE_LIVE_EVENT } from '@termpaste/contracts';
import { Card, NewItemsBar } from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { featuredPastesQuery } from '../api/pastes';
import { useListLive } from '../api/live';
import { HARDEST_COLUMNS, PasteTable } from '../components/paste-table';

/** /hardest: the featured pastes, newest first; live counts, and new ones shown only when the reader asks. */
export function HardestScreen() {
  const featured = useQuery(featuredPastesQuery);
  const threads = featured.data ?? null;
  const shown = useMemo(
    () => (featured.data ?? []).flatMap((card) => (typeof card.id === 'number' ? [card.id] : [])),
    [featured.data],
  );
  const news = useListLive({
    shown,
    queryKey: featuredPastesQuery.queryKey,
    isNew: (event) => (event.type === PASTE_LIVE_EVENT.pasteFlags ? event.isFeatured : undefined),
  });
  return (
    <Card
      titleLevel={1}
      title="HARDEST POSTS"
      className="forum-wide"
      actions={threads && <span className="forum-muted forum-count">{threads.length} featured</span>}
    >
      <NewItemsBar count={news.count} noun="paste" onShow={news.show} className="forum-new-items" />
      {featured.isError ? (
        <p className="forum-error">Could not load featured pastes. Try again in a moment.</p>
      ) : threads && threads.length === 0 ? (
        <p className="forum-muted">No featured posts yet. Check back soon!</p>
      ) : (
        <PasteTable threads={threads} label="Featured pastes" columns={HARDEST_COLUMNS} />
      )}
    </Card>
  );
}
