import type { ReplyView, PasteDetail } from '@termpaste/contracts';
import { Card, PersonNote, cx, useKeyboardList, usePeople } from '@termpaste/ui';
import {
  memo,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type CSSProperties,
  type RefObject,
} from 'react';
import { keepInView } from '../lib/keep-in-view';
import { replyTree, type ReplyRow } from '../lib/reply-tree';
import { useProgressive, type Progressive } from '../lib/use-progressive';
import { PasteLinesProvider } from './reply-excerpt';
import { MAX_INDENT, ReplyItem } from './reply-item';

/** How far ahead of the screen a reply is drawn in full (px): a fast flick lands on drawn replies. */
const AHEAD_PX = 1200;

/** The reply a `#reply-{id}` address names, if any. */
const hashReplyId = () => {
  const match = /^#reply-(\d+)$/.exec(window.location.hash);
  return match ? Number(match[1]) : null;
};

/**
 * Draws in full the replies that near the screen (scrolled to, selected with j, found), ahead of the
 * idle batches. One observer for the list: a reply already drawn is let go of as it comes into range.
 */
function useRevealNearScreen(
  list: RefObject<HTMLOListElement | null>,
  indexOf: Map<number, number>,
  progressive: Progressive,
) {
  const { done, reveal } = progressive;
  useEffect(() => {
    const container = list.current;
    if (done || !container || typeof IntersectionObserver !== 'function') return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          const item = entry.target as HTMLElement;
          observer.unobserve(item);
          const index = indexOf.get(Number(item.dataset.replyId));
          if (index !== undefined && item.hasAttribute('data-pending')) reveal(index);
        }
      },
      { rootMargin: `${AHEAD_PX}px 0px` },
    );
    for (const item of container.querySelectorAll('[data-pending]')) observer.observe(item);
    return () => observer.disconnect();
    // Only a new list of replies brings new pending ones; `done` ends the watch.
  }, [list, indexOf, reveal, done]);
}

/**
 * A link to a reply (`#reply-{id}`, on load or followed on the page): the reply drawn in full and brought
 * to the top of the screen, however deep in the thread (the page draws itself after the load, so the
 * browser's own jump to the address finds nothing).
 */
function useReplyPermalink(indexOf: Map<number, number>, reveal: (index: number) => void) {
  const [target, setTarget] = useState<{ id: number } | null>(null);
  useEffect(() => {
    const follow = () => {
      const id = hashReplyId();
      const index = id === null ? undefined : indexOf.get(id);
      if (id === null || index === undefined) return;
      reveal(index);
      setTarget({ id });
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [indexOf, reveal]);
  useLayoutEffect(() => {
    const element = target && document.getElementById(`reply-${target.id}`);
    // Kept at the top while the replies around it are drawn in full and the page above settles.
    return element ? keepInView(element) : undefined;
  }, [target]);
}

/** A paste's replies: counted in the card's title, each answer under the reply it answers. */
export function Replies({
  thread,
  signedIn,
  isAdmin,
  onReply,
}: {
  thread: PasteDetail;
  signedIn: boolean;
  isAdmin: boolean;
  /** Null when replies are closed to this viewer (signed out, or a locked paste for a member). */
  onReply: ((reply: ReplyView) => void) | null;
}) {
  const threadId = String(thread.id);
  const rows = useMemo(() => replyTree(thread.replies), [thread.replies]);
  const indexOf = useMemo(() => new Map(rows.map((row, index) => [row.reply.id, index])), [rows]);
  // j and k move through the replies; r answers the selected one (thread.tsx).
  const list = useKeyboardList<HTMLOListElement>('reply');
  // Two hundred replies drawn at once block a phone for seconds: the first screen now, the others as they
  // near the screen (drawing them all in idle moments would redo the long page's paint work each time).
  const keys = useMemo(() => rows.map((row) => row.reply.id), [rows]);
  const progressive = useProgressive(keys);
  useRevealNearScreen(list, indexOf, progressive);
  useReplyPermalink(indexOf, progressive.reveal);
  // Read once for the list: a gate per reply would watch the member's lists 200 times over.
  const people = usePeople();

  return (
    <Card title={`${thread.replyCount} ${thread.replyCount === 1 ? 'REPLY' : 'REPLIES'}`}>
      {rows.length === 0 ? (
        <p className="forum-muted">No replies yet.</p>
      ) : (
        <PasteLinesProvider
          id={thread.id}
          content={thread.content ?? ''}
          language={thread.language}
          authorId={thread.author?.id ?? null}
        >
          <ol className="forum-replies" ref={list}>
            {rows.map((row, index) => (
              <ReplyRowItem
                key={row.reply.id}
                row={row}
                person={people.stateOf(row.reply.author?.id)}
                pending={!progressive.isFull(index)}
                threadId={threadId}
                signedIn={signedIn}
                isAdmin={isAdmin}
                locked={thread.isLocked}
                onReply={onReply}
              />
            ))}
          </ol>
        </PasteLinesProvider>
      )}
    </Card>
  );
}

/**
 * One row of the tree: a muted member's reply collapses to a line (with 'show'), a blocked one's is left
 * out; the tree keeps its shape. As PersonGate, with the member's lists read once by the list.
 */
const ReplyRowItem = memo(function ReplyRowItem({
  row,
  person,
  ...rest
}: {
  row: ReplyRow;
  person: 'muted' | 'blocked' | null;
  pending: boolean;
  threadId: string;
  signedIn: boolean;
  isAdmin: boolean;
  locked: boolean;
  onReply: ((reply: ReplyView) => void) | null;
}) {
  const [shown, setShown] = useState(false);
  if (person === null || (person === 'muted' && shown)) return <ReplyItem {...row} {...rest} />;
  return (
    <li
      className={cx('forum-reply', 'forum-reply--person', row.depth > 0 && 'forum-reply--nested')}
      style={{ '--forum-depth': Math.min(row.depth, MAX_INDENT) } as CSSProperties}
      data-depth={row.depth}
      data-reply-id={row.reply.id}
      id={`reply-${row.reply.id}`}
    >
      <PersonNote state={person} onShow={() => setShown(true)} />
    </li>
  );
});
