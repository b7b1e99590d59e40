import { PAGES, type ReplyView } from '@termpaste/contracts';
import { MODERATION_TEXTS } from '@termpaste/contracts/moderation';
import { OWN_POSTS_MESSAGES, OWN_POSTS_TEXTS } from '@termpaste/contracts/own-posts';
import { editRefusal } from '@termpaste/contracts/revisions';
import {
  Button,
  FlagButton,
  isHiddenItem,
  KEYBOARD_ITEM,
  Markdown,
  Notice,
  cx,
  toast,
  useConfirm,
  useCurrentUser,
} from '@termpaste/ui';
import { CornerDownRight, Pencil, Reply, Trash2 } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { memo, useState, type CSSProperties } from 'react';
import { useDeleteReply, useVote } from '../api/pastes';
import { revisionQuery, revisionsQuery } from '../api/revisions';
import { AuthorLine } from './author-line';
import { EditReplyForm } from './edit-reply-form';
import { EditedMark } from './edited-mark';
import { LineCommentMark, LineCommentSuggestion } from './line-comments';
import { ReplyExcerpt } from './reply-excerpt';
import { VoteButtons } from './vote-buttons';
import { ReplyBookmark } from './watch-controls';

/** Replies deeper than this are drawn at this indent, with a line naming whom they answer. */
export const MAX_INDENT = 6;

/**
 * The text of the member's own reply hidden pending review: the shared page carries none, so it is read
 * from the reply's newest version (its history is its author's to read). Undefined until read.
 */
function useOwnHiddenText(replyId: number, enabled: boolean): string | undefined {
  const of = { kind: 'reply', id: replyId } as const;
  const list = useQuery({ ...revisionsQuery(of), enabled });
  const newest = list.data?.revisions.find((revision) => !revision.removed)?.n;
  const version = useQuery({ ...revisionQuery(of, newest ?? 0), enabled: enabled && newest !== undefined });
  return enabled ? version.data?.content : undefined;
}

interface ReplyItemProps {
  reply: ReplyView;
  depth: number;
  parent: ReplyView | null;
  threadId: string;
  signedIn: boolean;
  isAdmin: boolean;
  /** The paste is locked: its replies are edited by admins only. */
  locked?: boolean;
  /** Null when replies are closed to this viewer (signed out, or a locked paste for a member). */
  onReply: ((reply: ReplyView) => void) | null;
  /**
   * Not drawn in full yet (a long thread draws its replies a few at a time): its author and its text as
   * written, in the same element, so links to it, find-in-page and j/k already reach it.
   */
  pending?: boolean;
}

/**
 * One reply in the tree (ReplyBody); one its author deleted while replies stand under it shows as
 * OWN_POSTS_TEXTS.replyDeleted. Memoised: the page redraws on every live change, a reply on its own.
 */
export const ReplyItem = memo(function ReplyItem(props: ReplyItemProps) {
  const { reply, depth, pending = false } = props;
  const style = { '--forum-depth': Math.min(depth, MAX_INDENT) } as CSSProperties;
  if (reply.deleted) {
    return (
      <li
        className={cx('forum-reply', 'forum-reply--deleted', depth > 0 && 'forum-reply--nested')}
        style={style}
        aria-label="Deleted reply"
        data-depth={depth}
        data-reply-id={reply.id}
        id={`reply-${reply.id}`}
      >
        <p className="forum-muted forum-reply__placeholder">{OWN_POSTS_TEXTS.replyDeleted}</p>
      </li>
    );
  }
  // The same element whether pending or not: the keyboard's selection and the focus stay on it.
  return (
    <li
      className={cx('forum-reply', depth > 0 && 'forum-reply--nested')}
      style={style}
      aria-label={`Reply by ${reply.author?.username ?? 'Anonymous'}`}
      data-depth={depth}
      data-reply-id={reply.id}
      data-pending={pending || undefined}
      id={`reply-${reply.id}`}
      {...KEYBOARD_ITEM}
    >
      {pending ? <ReplyPreview reply={reply} /> : <ReplyBody {...props} />}
    </li>
  );
});

/** A reply not drawn in full yet: its author and its text as written (cheap: no parse, no buttons). */
function ReplyPreview({ reply }: { reply: ReplyView }) {
  const withheld = isHiddenItem(reply) && reply.content === '';
  return (
    <>
      <header className="forum-reply__head">
        <span className="forum-reply__preview-author">{reply.author?.username ?? 'Anonymous'}</span>
      </header>
      {withheld ? (
        <p className="tp-hidden-placeholder">[{MODERATION_TEXTS.hiddenPendingReview}]</p>
      ) : (
        <div className="forum-reply__preview">{reply.content}</div>
      )}
    </>
  );
}

/**
 * A reply drawn in full: who wrote it, its Markdown, its votes, and the reply, edit and delete buttons
 * (its author's delete takes the reply alone; an admin's, the replies under it too).
 */
function ReplyBody({
  reply,
  depth,
  parent,
  threadId,
  signedIn,
  isAdmin,
  locked = false,
  onReply,
}: ReplyItemProps) {
  const vote = useVote(threadId);
  const remove = useDeleteReply(threadId);
  const confirm = useConfirm();
  const { user } = useCurrentUser();
  const [editing, setEditing] = useState(false);
  // Its author, or an admin; under a lock, admins only.
  const canEdit = user !== null && editRefusal(user, { authorId: reply.author?.id ?? null, locked }) === null;
  // An admin deletes any reply with those under it; a member, their own reply alone.
  const own = !isAdmin && user !== null && reply.author?.id === user.id;
  const mine = user !== null && reply.author?.id === user.id;
  // Hidden pending review: its placeholder where the API sends no text; its author is told, and may edit.
  const hidden = isHiddenItem(reply);
  const withheld = hidden && reply.content === '';
  const ownText = useOwnHiddenText(reply.id, withheld && mine);
  const shown = ownText ?? reply.content;

  const onDelete = async () => {
    const confirmed = await confirm(
      own
        ? {
            title: OWN_POSTS_TEXTS.confirmDeleteReply,
            description: OWN_POSTS_TEXTS.confirmDeleteReplyDetail,
            confirmLabel: OWN_POSTS_TEXTS.deleteButton,
            destructive: true,
          }
        : {
            title: 'Delete this reply?',
            description: 'The reply and the replies under it are deleted.',
            confirmLabel: 'DELETE',
            destructive: true,
          },
    );
    if (!confirmed) return;
    // Not mutate's onSuccess: this body unmounts once the paste is read again (the reply becomes its
    // placeholder), and a mutation's per-call callbacks are dropped with their component.
    remove.mutateAsync({ replyId: reply.id, own }).then(
      () => toast({ title: own ? OWN_POSTS_MESSAGES.replyDeleted : 'Reply deleted successfully' }),
      () => undefined, // the hook's onError has told them
    );
  };

  return (
    <>
      <header className="forum-reply__head">
        <AuthorLine author={reply.author} createdAt={reply.createdAt} />
        {reply.editedAt && (
          <EditedMark editedAt={reply.editedAt} to={`${PAGES.threadRevisions(threadId)}?reply=${reply.id}`} />
        )}
        {depth > MAX_INDENT && parent && (
          <a href={`#reply-${parent.id}`} className="forum-muted forum-reply__to">
            <CornerDownRight size={12} aria-hidden="true" /> {parent.author?.username ?? 'Anonymous'}
          </a>
        )}
      </header>
      {!hidden && <LineCommentMark reply={reply} threadId={threadId} />}
      {hidden && mine && (
        <Notice tone="error" className="forum-hidden-own">
          {MODERATION_TEXTS.hiddenOwn}
        </Notice>
      )}
      {editing ? (
        <EditReplyForm
          reply={{ ...reply, content: shown }}
          threadId={threadId}
          onDone={() => setEditing(false)}
        />
      ) : withheld && ownText === undefined ? (
        <p className="tp-hidden-placeholder">[{MODERATION_TEXTS.hiddenPendingReview}]</p>
      ) : (
        <>
          <Markdown>{shown}</Markdown>
          <ReplyExcerpt text={shown} />
          {!hidden && <LineCommentSuggestion reply={reply} threadId={threadId} />}
        </>
      )}
      <footer className="forum-reply__foot">
        <VoteButtons
          what="reply"
          score={reply.voteScore}
          myVote={reply.myVote}
          disabled={!signedIn}
          pending={vote.isPending}
          onVote={(value) => vote.mutate({ replyId: reply.id, value })}
        />
        {onReply && !hidden && (
          <Button variant="ghost" size="sm" onClick={() => onReply(reply)}>
            <Reply size={12} aria-hidden="true" />
            REPLY
          </Button>
        )}
        {canEdit && !editing && (
          <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>
            <Pencil size={12} aria-hidden="true" />
            EDIT
          </Button>
        )}
        {(isAdmin || own) && (
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
        {signedIn && !hidden && <ReplyBookmark replyId={reply.id} pasteRef={threadId} />}
        {signedIn && !mine && !hidden && (
          <FlagButton
            targetType="reply"
            targetId={reply.id}
            what={`reply by ${reply.author?.username ?? 'Anonymous'}`}
          />
        )}
      </footer>
    </>
  );
}
