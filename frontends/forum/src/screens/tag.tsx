import { FEEDS, PAGES, TAG_MESSAGES } from '@termpaste/contracts';
import { Card, ListFooter } from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { tagPageQuery } from '../api/tags';
import { isNotFoundError } from '../lib/not-found';
import { FeedLink } from '../components/feed-link';
import { NotFoundCard } from '../components/not-found';
import { PasteTable } from '../components/paste-table';
import { WatchTagButton } from '../components/watch-controls';

/** /tag/{name}: the tag's listed pastes, newest first, 50 at a time (as home). */
export function TagScreen() {
  const name = (useParams().name ?? '').toLowerCase();
  const list = useInfiniteQuery(tagPageQuery(name));
  if (isNotFoundError(list.error)) return <NotFoundCard text={`${TAG_MESSAGES.tagNotFound} [404]`} />;
  const pages = list.data?.pages;
  const tag = pages?.[0]?.tag;
  const threads = pages?.flatMap((page) => page.threads) ?? null;
  return (
    <>
      <FeedLink href={FEEDS.tag(name)} title={`pastes tagged ${name}`} />
      <Card
        titleLevel={1}
        title={`#${name}`}
        className="forum-wide"
        actions={
          <div className="forum-tag-page__actions">
            {tag && <WatchTagButton name={name} />}
            {tag && (
              <span className="forum-muted forum-count">
                {tag.pasteCount} {tag.pasteCount === 1 ? 'paste' : 'pastes'}
              </span>
            )}
            <Link to={PAGES.tags} className="tp-button tp-button--ghost tp-button--sm">
              ALL TAGS
            </Link>
          </div>
        }
      >
        {list.isError && !list.data ? (
          <p className="forum-error">Could not load the pastes. Try again in a moment.</p>
        ) : (
          <>
            <PasteTable threads={threads} label={`Pastes tagged ${name}`} />
            {threads && (
              <ListFooter className="forum-footer" list={list}>
                Showing {threads.length} of {tag?.pasteCount ?? threads.length}
              </ListFooter>
            )}
          </>
        )}
      </Card>
    </>
  );
}
