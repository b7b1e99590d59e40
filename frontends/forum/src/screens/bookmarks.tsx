import { type BookmarkEntry, PAGES, WATCHING_TEXTS } from '@termpaste/contracts';
import { bookmarksQuery, Card, ListFooter, relativeTime, Spinner } from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { AuthorLine } from '../components/author-line';
import { BookmarkButton } from '../components/watch-controls';

/** One bookmark: the paste (or the reply, as an excerpt under its paste's title), the note, its icon. */
function BookmarkItem({ entry }: { entry: BookmarkEntry }) {
  const to =
    entry.reply === null
      ? PAGES.thread(entry.paste.ref)
      : `${PAGES.thread(entry.paste.ref)}#reply-${entry.reply.id}`;
  return (
    <li
      className="forum-bookmark"
      aria-label={entry.reply ? `reply in ${entry.paste.title}` : entry.paste.title}
    >
      <div className="forum-bookmark__main">
        <Link to={to} className="forum-bookmark__title">
          {entry.reply ? WATCHING_TEXTS.replyIn(entry.paste.title) : entry.paste.title}
        </Link>
        {entry.reply ? (
          <>
            <p className="forum-bookmark__excerpt">{entry.reply.excerpt}</p>
            <AuthorLine author={entry.reply.author} createdAt={entry.reply.createdAt} />
          </>
        ) : (
          <AuthorLine author={entry.paste.author} createdAt={entry.paste.createdAt} />
        )}
        {entry.note && <p className="forum-bookmark__note">› {entry.note}</p>}
        <span className="forum-muted forum-bookmark__since">saved {relativeTime(entry.createdAt)}</span>
      </div>
      <BookmarkButton
        kind={entry.kind}
        target={entry.target}
        note={entry.note}
        what={entry.reply ? 'reply' : `paste ${entry.paste.title}`}
      />
    </li>
  );
}

/** /bookmarks: the member's saved pastes and replies, newest first, with their notes. */
export function BookmarksScreen() {
  const list = useInfiniteQuery(bookmarksQuery);
  const entries = list.data?.pages.flatMap((page) => page.bookmarks) ?? [];
  return (
    <Card titleLevel={1} title={WATCHING_TEXTS.bookmarksTitle}>
      <p className="tp-prompt">{WATCHING_TEXTS.bookmarksHelp}</p>
      {list.isPending ? (
        <Spinner label="Loading..." />
      ) : list.isError ? (
        <p className="tp-danger">Could not load your bookmarks. Try again in a moment.</p>
      ) : entries.length === 0 ? (
        <p className="forum-muted">{WATCHING_TEXTS.noBookmarks}</p>
      ) : (
        <>
          <ul className="forum-bookmarks" aria-label={WATCHING_TEXTS.bookmarksTitle}>
            {entries.map((entry) => (
              <BookmarkItem key={entry.id} entry={entry} />
            ))}
          </ul>
          <ListFooter list={list}>
            Showing {entries.length} {entries.length === 1 ? 'bookmark' : 'bookmarks'}
          </ListFooter>
        </>
      )}
    </Card>
  );
}
