import {
  API,
  authorRank,
  PAGES,
  REDIRECT_DELAY_MS,
  TEXTS,
  type ReplyView,
  type ThreadDetail,
} from '@termpaste/contracts';
import {
  Button,
  Card,
  CopyButton,
  FormActions,
  Markdown,
  preloadMarkdown,
  RankBadge,
  Spinner,
  Textarea,
  cx,
  relativeTime,
  toast,
  useConfirm,
  useCurrentUser,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, CornerDownRight, Eye, FileText, Reply, Trash2 } from 'lucide-react';
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type FormEvent,
  type RefObject,
} from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import {
  threadQuery,
  useCreateReply,
  useDeleteReply,
  useDeleteThread,
  useToggleFlag,
  useVote,
  type ThreadFlag,
} from '../api/forum';
import { AuthorLink } from '../components/author';
import { ThreadFlags } from '../components/thread-flags';
import { VoteButtons } from '../components/vote-buttons';
import { useGoBack } from '../lib/go-back';
import { isNotFoundError, isRecordId } from '../lib/not-found';
import { replyTree } from '../lib/reply-tree';
import { NotFoundCard } from '../components/not-found';

/** Replies deeper than this are drawn at this indent, with a line naming whom they answer. */
const MAX_INDENT = 6;

const FLAG_ACTIONS: Array<{
  flag: ThreadFlag;
  on: (t: ThreadDetail) => boolean;
  set: string;
  unset: string;
}> = [
  { flag: 'pin', on: (t) => t.isPinned, set: 'PIN', unset: 'UNPIN' },
  { flag: 'lock', on: (t) => t.isLocked, set: 'LOCK', unset: 'UNLOCK' },
  { flag: 'featured', on: (t) => t.isFeatured, set: 'FEATURE', unset: 'UNFEATURE' },
];

function AdminThreadActions({ thread }: { thread: ThreadDetail }) {
  const id = String(thread.id);
  const confirm = useConfirm();
  const navigate = useNavigate();
  const toggle = useToggleFlag(id);
  const remove = useDeleteThread(id);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);

  const onToggle = async (action: (typeof FLAG_ACTIONS)[number]) => {
    const label = action.on(thread) ? action.unset : action.set;
    if (!(await confirm({ title: `${label} this paste?`, description: thread.title, confirmLabel: label })))
      return;
    toggle.mutate(action.flag, {
      onSuccess: () => toast({ title: `Thread ${action.flag} status toggled` }),
    });
  };

  const onDelete = async () => {
    const confirmed = await confirm({
      title: 'Delete this paste?',
      description: 'The paste, its replies and its votes are deleted. This cannot be undone.',
      confirmLabel: 'DELETE',
      destructive: true,
    });
    if (!confirmed) return;
    remove.mutate(undefined, {
      onSuccess: () => {
        toast({ title: 'Thread deleted successfully' });
        redirect.current = setTimeout(() => navigate(PAGES.home), REDIRECT_DELAY_MS);
      },
    });
  };

  return (
    <div className="forum-admin" role="group" aria-label="Moderation">
      {FLAG_ACTIONS.map((action) => (
        <Button
          key={action.flag}
          variant="outline"
          size="sm"
          disabled={toggle.isPending || remove.isPending}
          onClick={() => void onToggle(action)}
        >
          {action.on(thread) ? action.unset : action.set}
        </Button>
      ))}
      <Button
        variant="danger"
        size="sm"
        disabled={remove.isPending || remove.isSuccess}
        onClick={() => void onDelete()}
      >
        <Trash2 size={12} aria-hidden="true" />
        DELETE
      </Button>
    </div>
  );
}

function AuthorLine({ author, createdAt }: { author: ThreadDetail['author']; createdAt: string }) {
  return (
    <span className="forum-byline">
      <AuthorLink author={author} avatarSize={24} />
      {author && <RankBadge rank={authorRank(author)} />}
      <time dateTime={createdAt} title={new Date(createdAt).toLocaleString()} className="forum-muted">
        {relativeTime(createdAt)}
      </time>
    </span>
  );
}

function ReplyItem({
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

function ReplyForm({
  thread,
  target,
  onClearTarget,
  textareaRef,
}: {
  thread: ThreadDetail;
  target: ReplyView | null;
  onClearTarget: () => void;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const id = useId();
  const [content, setContent] = useState('');
  const create = useCreateReply(String(thread.id));
  const blank = content.trim().length === 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blank) return;
    create.mutate(
      { content, parentId: target?.id ?? null },
      {
        onSuccess: () => {
          toast({ title: 'Reply posted' });
          setContent('');
          onClearTarget();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="forum-reply-form" aria-label="Reply">
      {target && (
        <p className="forum-reply-form__target">
          <CornerDownRight size={13} aria-hidden="true" /> Replying to{' '}
          <strong>{target.author?.username ?? 'Anonymous'}</strong>
          <Button variant="ghost" size="sm" onClick={onClearTarget}>
            CANCEL REPLY
          </Button>
        </p>
      )}
      <label htmlFor={id} className="tp-sr-only">
        Your reply
      </label>
      <Textarea
        id={id}
        ref={textareaRef}
        value={content}
        disabled={create.isPending}
        placeholder="Write a reply... (Markdown supported)"
        onChange={(event) => setContent(event.target.value)}
      />
      <FormActions>
        <Button type="submit" variant="primary" disabled={blank} loading={create.isPending}>
          POST REPLY
        </Button>
      </FormActions>
    </form>
  );
}

function ThreadView({ thread }: { thread: ThreadDetail }) {
  const { user } = useCurrentUser();
  const signedIn = user !== null;
  const isAdmin = Boolean(user?.isAdmin);
  const threadId = String(thread.id);
  const goBack = useGoBack();
  const vote = useVote(threadId);
  const [target, setTarget] = useState<ReplyView | null>(null);
  const textareaRef = useRef<HTMLTextAreaElement | null>(null);
  const rows = useMemo(() => replyTree(thread.replies), [thread.replies]);
  const canReply = signedIn && (!thread.isLocked || isAdmin);
  // A target deleted meanwhile (by an admin) is no target: the server would refuse its parentId.
  const liveTarget = target && thread.replies.some((reply) => reply.id === target.id) ? target : null;

  const replyTo = (reply: ReplyView) => {
    setTarget(reply);
    textareaRef.current?.focus();
    textareaRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  };

  return (
    <div className="forum-stack">
      <div>
        <Button variant="ghost" size="sm" onClick={goBack}>
          <ArrowLeft size={14} aria-hidden="true" />
          BACK
        </Button>
      </div>
      <Card
        title="PASTE"
        actions={
          <>
            <CopyButton text={thread.content} label="COPY PASTE" aria-label="Copy paste" />
            <a
              href={API.threadRaw(thread.id)}
              target="_blank"
              rel="noopener noreferrer"
              className="tp-button tp-button--ghost tp-button--sm"
            >
              <FileText size={12} aria-hidden="true" />
              RAW
            </a>
          </>
        }
      >
        <div className="forum-split">
          <VoteButtons
            what="paste"
            score={thread.voteScore}
            myVote={thread.myVote}
            disabled={!signedIn}
            pending={vote.isPending}
            onVote={(value) => vote.mutate({ threadId: thread.id, value })}
          />
          <div className="forum-split__main">
            <h1 className="forum-thread__title">
              <ThreadFlags thread={thread} />
              {thread.title}
            </h1>
            <p className="forum-thread__meta">
              <AuthorLine author={thread.author} createdAt={thread.createdAt} />
              <span className="forum-muted forum-card__stat">
                <Eye size={13} aria-hidden="true" />
                {thread.viewCount} {thread.viewCount === 1 ? 'view' : 'views'}
              </span>
            </p>
            {isAdmin && <AdminThreadActions thread={thread} />}
            <Markdown className="forum-thread__content">{thread.content}</Markdown>
          </div>
        </div>
      </Card>

      <Card title={`${thread.replyCount} ${thread.replyCount === 1 ? 'REPLY' : 'REPLIES'}`}>
        {rows.length === 0 ? (
          <p className="forum-muted">No replies yet.</p>
        ) : (
          <ol className="forum-replies">
            {rows.map((row) => (
              <ReplyItem
                key={row.reply.id}
                {...row}
                threadId={threadId}
                signedIn={signedIn}
                isAdmin={isAdmin}
                onReply={canReply ? replyTo : null}
              />
            ))}
          </ol>
        )}
      </Card>

      <Card title="POST A REPLY">
        {!signedIn ? (
          <p className="forum-signed-out">
            You must be logged in to post replies{' '}
            <a href={API.login} className="tp-button tp-button--primary tp-button--sm">
              LOGIN
            </a>
          </p>
        ) : !canReply ? (
          <p className="forum-muted">This paste is locked: new replies are closed.</p>
        ) : (
          <>
            {thread.isLocked && (
              <p className="forum-muted forum-locked-note">This paste is locked: only staff can reply.</p>
            )}
            <ReplyForm
              thread={thread}
              target={liveTarget}
              onClearTarget={() => setTarget(null)}
              textareaRef={textareaRef}
            />
          </>
        )}
      </Card>
    </div>
  );
}

/** /thread/{id} (SPEC §2): the paste, its votes and moderation, the reply tree and the reply form. */
export function ThreadScreen() {
  const { id = '' } = useParams();
  // The paste is Markdown: its renderer downloads while the paste does.
  useEffect(() => void preloadMarkdown(), []);
  const thread = useQuery({ ...threadQuery(id), enabled: isRecordId(id) });

  if (!isRecordId(id) || isNotFoundError(thread.error)) return <NotFoundCard text={TEXTS.threadNotFound} />;
  if (thread.isError && !thread.data) {
    return (
      <Card title="ERROR">
        <p className="forum-error">Could not load this paste. Try again in a moment.</p>
      </Card>
    );
  }
  if (!thread.data) return <Spinner label="Loading paste..." />;
  return <ThreadView key={thread.data.id} thread={thread.data} />;
}
