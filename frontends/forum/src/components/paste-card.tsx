import { PAGES, PEOPLE_TEXTS, type PasteCard as PasteCardData } from '@termpaste/contracts';
import {
  KEYBOARD_ITEM,
  KEYBOARD_OPEN,
  PersonGate,
  relativeTime,
  useKeyboardList,
  useWithoutBlocked,
} from '@termpaste/ui';
import { Eye, MessageSquare } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PasteFlags } from './paste-flags';
import { TagLinks } from './tags';
import { VisibilityBadge } from './visibility';

/** The title with its [LOCKED] and [PINNED] prefixes. */
export function prefixedTitle(thread: Pick<PasteCardData, 'title' | 'isLocked' | 'isPinned'>): string {
  return [thread.isLocked && '[LOCKED]', thread.isPinned && '[PINNED]', thread.title]
    .filter(Boolean)
    .join(' ');
}

/**
 * A paste in a list (search, profile): flags, prefixed title, author, replies, views, age and the last
 * reply. Authors show by username ('User' when it is missing): e-mail addresses are never sent.
 */
export function PasteCard({ thread }: { thread: PasteCardData }) {
  const author = thread.author;
  return (
    <article className="forum-card" aria-label={thread.title} {...KEYBOARD_ITEM}>
      <h3 className="forum-card__title">
        <PasteFlags thread={thread} />
        <VisibilityBadge visibility={thread.visibility} />
        <Link to={PAGES.thread(thread.id)} {...KEYBOARD_OPEN}>
          {prefixedTitle(thread)}
        </Link>
      </h3>
      <TagLinks tags={thread.tags} />
      <p className="forum-card__meta">
        <span>
          by{' '}
          {author ? (
            <Link to={PAGES.profile(author.id)}>{author.username || 'User'}</Link>
          ) : (
            <span className="forum-muted">Anonymous</span>
          )}
        </span>
        <span className="forum-card__stat">
          <MessageSquare size={13} aria-hidden="true" />
          {thread.replyCount} {thread.replyCount === 1 ? 'reply' : 'replies'}
        </span>
        <span className="forum-card__stat">
          <Eye size={13} aria-hidden="true" />
          {thread.viewCount} {thread.viewCount === 1 ? 'view' : 'views'}
        </span>
        <span className="forum-muted">{relativeTime(thread.createdAt)}</span>
      </p>
      {thread.lastReplyAt && (
        <p className="forum-card__last forum-muted">
          Last reply {relativeTime(thread.lastReplyAt)} by {thread.lastReplyAuthor?.username ?? 'Anonymous'}
        </p>
      )}
    </article>
  );
}

/**
 * A list of thread cards; j and k move through it, o and Enter open the selected one. A
 * muted member's paste is collapsed to a line, a blocked member's left out (counted below the list).
 */
export function PasteCardList({ threads, label }: { threads: PasteCardData[]; label: string }) {
  const list = useKeyboardList<HTMLUListElement>('paste');
  const shown = useWithoutBlocked(threads, (thread) => thread.author?.id);
  return (
    <>
      <ul className="forum-card-list" aria-label={label} ref={list}>
        {shown.items.map((thread) => (
          <li key={thread.id}>
            <PersonGate authorId={thread.author?.id}>
              <PasteCard thread={thread} />
            </PersonGate>
          </li>
        ))}
      </ul>
      {shown.leftOut > 0 && (
        <p className="forum-muted forum-left-out">{PEOPLE_TEXTS.blockedLeftOut(shown.leftOut)}</p>
      )}
    </>
  );
}
