import type { ReplyView } from '@termpaste/contracts';
import { Button, Markdown, cx, toast, useConfirm } from '@termpaste/ui';
import { CornerDownRight, Reply, Trash2 } from 'lucide-react';
import type { CSSProperties } from 'react';
import { useDeleteReply, useVote } from '../api/forum';
import { AuthorLine } from './author-line';
import { ReplyExcerpt } from './reply-excerpt';
import { VoteButtons } from './vote-buttons';

/** Replies deeper than this are drawn at this indent, with a line naming whom they answer. */
const MAX_INDENT = 6;

/** One reply in the tree: who wrote it, its Markdown, its votes, and the reply and admin's delete buttons. */
export function ReplyItem({
  reply,
  depth,
  parent,
  threadId,
  signedIn,
  isAdmin,
  onReply,
}: {
  reply: ReplyView;
  depth: number;
  parent: ReplyView | null;
  threadId: string;
  signedIn: boolean;
  isAdmin: boolean;
  /** Null when replies are closed to this viewer (signed out, or a locked paste for a member). */
  onReply: ((reply: ReplyView) => void) | null;
}) {
  const vote = useVote(threadId);
  const remove = useDeleteReply(threadId);
  const confirm = useConfirm();

  const onDelete = async () => {
    const confirmed = await confirm({
      title: 'Delete this reply?',
      description: 'The reply and the replies under it are deleted.',
      confirmLabel: 'DELETE',
      destructive: true,
    });
    if (!confirmed) return;
    remove.mutate(reply.id, { onSuccess: () => toast({ title: 'Reply deleted successfully' }) });
  };

  return (
    <li
      className={cx('forum-reply', depth > 0 && 'forum-reply--nested')}
      style={{ '--forum-depth': Math.min(depth, MAX_INDENT) } as CSSProperties}
      aria-label={`Reply by ${reply.author?.username ?? 'Anonymous'}`}
      data-depth={depth}
      id={`reply-${reply.id}`}
    >
      <header className="forum-reply__head">
        <AuthorLine author={reply.author} createdAt={reply.createdAt} />
        {depth > MAX_INDENT && parent && (
          <a href={`#reply-${parent.id}`} className="forum-muted forum-reply__to">
            <CornerDownRight size={12} aria-hidden="true" /> {parent.author?.username ?? 'Anonymous'}
          </a>
        )}
      </header>
      <Markdown>{reply.content}</Markdown>
      <ReplyExcerpt text={reply.content} />
      <footer className="forum-reply__foot">
        <VoteButtons
          what="reply"
          score={reply.voteScore}
          myVote={reply.myVote}
          disabled={!signedIn}
          pending={vote.isPending}
          onVote={(value) => vote.mutate({ replyId: reply.id, value })}
        />
        {onReply && (
          <Button variant="ghost" size="sm" onClick={() => onReply(reply)}>
            <Reply size={12} aria-hidden="true" />
            REPLY
          </Button>
        )}
        {isAdmin && (
          <Button
            variant="ghost"
            size="sm"
            className="forum-danger-ghost"
            disabled={remove.isPending}
            onClick={() => void onDelete()}
          >
            <Trash2 size={12} aria-hidden="true" />
            DELETE
          </Button>
        )}
      </footer>
    </li>
  );
}
