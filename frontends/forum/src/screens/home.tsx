import { FEEDS, PASTE_LIVE_EVENT, PAGES } from '@termpaste/contracts';
import { Card, ListFooter, NewItemsBar, useTakeOverPaint } from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { recentPastesQuery } from '../api/pastes';
import { useListLive } from '../api/live';
import { FeedLink } from '../components/feed-link';
import { PasteTable } from '../components/paste-table';

/**
 * Home: pinned pastes apart, the rest newest first, 50 at a time. Pastes added since it loaded are
 * counted above the table and shown only when the reader asks, so nothing jumps while they read.
 */
export function HomeScreen() {
  return (
    <>
      <FeedLink href={FEEDS.recent} title="recent pastes" />
      <RecentPastes />
    </>
  );
}

function RecentPastes() {
  const recent = useInfiniteQuery(recentPastesQuery);
  const shown = useMemo(
    () =>
      // Lists show public pastes only, named by their numbers as live events name them.
      (recent.data?.pages ?? []).flatMap((page) =>
        [...page.pinned, ...page.threads].flatMap((card) => (typeof card.id === 'number' ? [card.id] : [])),
      ),
    [recent.data],
  );
  const news = useListLive({
    shown,
    queryKey: recentPastesQuery.queryKey,
    isNew: (event) => event.type === PASTE_LIVE_EVENT.pasteAdded || undefined,
  });
  useTakeOverPaint(recent.data !== undefined || recent.isError);
  const bar = <NewItemsBar count={news.count} noun="paste" onShow={news.show} className="forum-new-items" />;

  const addPaste = (
    <Link to={PAGES.newThread} className="tp-button tp-button--primary tp-button--sm">
      ADD PASTE
    </Link>
  );

  if (recent.isError && !recent.data) {
    return (
      <Card titleLevel={1} title="RECENT PASTES" actions={addPaste}>
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
      <Card titleLevel={1} title="RECENT PASTES" actions={addPaste}>
        {bar}
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
          <PasteTable threads={pinned} label="Pinned Pastes" />
        </Card>
      )}
      <Card titleLevel={1} title="RECENT PASTES" actions={addPaste}>
        {bar}
        <PasteTable threads={threads} label="Recent pastes" />
        {threads && (
          <ListFooter className="forum-footer" list={recent}>
            Showing {pinned.length + threads.length} of {total} total pastes
          </ListFooter>
        )}
      </Card>
    </div>
  );
}
