import type { ReplyView, ThreadDetail } from '@termpaste/contracts';
import { Card, useKeyboardList } from '@termpaste/ui';
import { useMemo } from 'react';
import { replyTree } from '../lib/reply-tree';
import { PasteLinesProvider } from './reply-excerpt';
import { ReplyItem } from './reply-item';

/** A paste's replies (SPEC §2): counted in the card's title, each answer under the reply it answers. */
export function Replies({
  thread,
  signedIn,
  isAdmin,
  onReply,
}: {
  thread: ThreadDetail;
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
              <ReplyItem
                key={row.reply.id}
                {...row}
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
