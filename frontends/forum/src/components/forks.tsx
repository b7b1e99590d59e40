import { type PasteDetail } from '@termpaste/contracts';
import { OWN_POSTS_TEXTS } from '@termpaste/contracts/own-posts';
import { Button, Card, Spinner } from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { forksQuery } from '../api/pastes';
import { PasteCardList } from './paste-card';

/** Below a paste that has public forks: their count and the list of them, newest first. */
export function Forks({ thread }: { thread: PasteDetail }) {
  const forks = useInfiniteQuery(forksQuery(String(thread.id)));
  const cards = forks.data?.pages.flatMap((page) => page.forks) ?? [];
  return (
    <Card title={OWN_POSTS_TEXTS.forks(thread.forkCount).toUpperCase()}>
      <div id="forks">
        {forks.isError ? (
          <p className="forum-error">Could not load the forks. Try again in a moment.</p>
        ) : !forks.data ? (
          <Spinner label="Loading forks..." />
        ) : cards.length === 0 ? (
          <p className="forum-muted">No public forks</p>
        ) : (
          <PasteCardList threads={cards} label="Forks" />
        )}
        {forks.hasNextPage && (
          <Button
            variant="ghost"
            size="sm"
            loading={forks.isFetchingNextPage}
            onClick={() => void forks.fetchNextPage()}
          >
            LOAD MORE
          </Button>
        )}
      </div>
    </Card>
  );
}
