import type { ReplyView, PasteDetail } from '@termpaste/contracts';
import { Card, PersonGate, cx, useKeyboardList } from '@termpaste/ui';
import { useMemo, type CSSProperties } from 'react';
import { replyTree } from '../lib/reply-tree';
import { PasteLinesProvider } from './reply-excerpt';
import { MAX_INDENT, ReplyItem } from './reply-item';

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
  // j and k move through the replies; r answers the selected one (thread.tsx).
  const list = useKeyboardList<HTMLOListElement>('reply');

  return (
    <Card title={`${thread.replyCount} ${thread.replyCount === 1 ? 'REPLY' : 'REPLIES'}`}>
      {rows.length === 0 ? (
        <p className="forum-muted">No replies yet.</p>
      ) : (
        <PasteLinesProvider id={thread.id} content={thread.content ?? ''} language={thread.language}>
          <ol className="forum-replies" ref={list}>
            {rows.map((row) => (
              // A muted member's reply collapses to a line, a blocked one's is left out; the tree keeps its shape.
              <PersonGate
                key={row.reply.id}
                authorId={row.reply.author?.id}
                wrap={(note) => (
                  <li
                    className={cx(
                      'forum-reply',
                      'forum-reply--person',
                      row.depth > 0 && 'forum-reply--nested',
                    )}
                    style={{ '--forum-depth': Math.min(row.depth, MAX_INDENT) } as CSSProperties}
                    data-depth={row.depth}
                    data-reply-id={row.reply.id}
                    id={`reply-${row.reply.id}`}
                  >
                    {note}
                  </li>
                )}
              >
                <ReplyItem
                  {...row}
                  threadId={threadId}
                  signedIn={signedIn}
                  isAdmin={isAdmin}
                  locked={thread.isLocked}
                  onReply={onReply}
                />
              </PersonGate>
            ))}
          </ol>
        </PasteLinesProvider>
      )}
    </Card>
  );
}
