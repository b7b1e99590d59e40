import {
  LINE_COMMENT_MAX_LINES,
  LINE_COMMENT_TEXTS,
  PAGES,
  pasteLines,
  type PasteDetail,
  type ReplyView,
  suggestionLines,
} from '@termpaste/contracts';
import { MODERATION_TEXTS } from '@termpaste/contracts/moderation';
import { Button, FormActions, Markdown, Textarea, toast, useConfirm, useCurrentUser } from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { Check, GitPullRequestArrow, History, MessageSquare } from 'lucide-react';
import { useCallback, useId, useMemo, useState, type ComponentProps, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useApplySuggestion } from '../api/line-comments';
import { useCreateReply } from '../api/pastes';
import { revisionsQuery } from '../api/revisions';
import { AuthorLine } from './author-line';
import { usePasteLines } from './reply-excerpt';
import { CodeView, lineHash, type LineRange } from './code-view';
import './line-comments.css';

/*
 * Comments on lines, like a code review: select lines in the code view (a line number; Shift for a range;
 * Enter and Shift+Enter from the keyboard), COMMENT (or c), and the comment shows under its lines and in
 * the replies. A comment may suggest a change to its lines; the paste's author sees the diff and APPLY.
 */

/** The paste's versions page, at version `n`'s row. */
const versionHref = (threadId: string | number, n: number) => `${PAGES.threadRevisions(threadId)}#v${n}`;

/** Whether the signed-in member may comment on the paste (the reply rules: not burning, not locked). */
function useCanComment(thread: PasteDetail, gone: boolean): boolean {
  const { user } = useCurrentUser();
  return user !== null && !gone && !thread.burnAfterReading && (!thread.isLocked || user.isAdmin);
}

/**
 * The paste's code view with its line comments: each under its last line (while the lines read as they
 * did), the form under the lines being commented on.
 */
export function CommentableCode({
  thread,
  gone = false,
  ...view
}: ComponentProps<typeof CodeView> & { thread: PasteDetail; gone?: boolean }) {
  const canComment = useCanComment(thread, gone);
  const [range, setRange] = useState<LineRange | null>(null);
  const lines = useMemo(() => pasteLines(thread.content ?? ''), [thread.content]);
  const byLine = useMemo(() => {
    const map = new Map<number, ReplyView[]>();
    for (const reply of thread.replies) {
      if (!reply.anchor || reply.outdated || reply.deleted || reply.parentId !== null) continue;
      const list = map.get(reply.anchor.toLine) ?? [];
      list.push(reply);
      map.set(reply.anchor.toLine, list);
    }
    return map;
  }, [thread.replies]);
  const onComment = useCallback(
    (selected: LineRange) =>
      setRange({
        start: selected.start,
        end: Math.min(selected.end, selected.start + LINE_COMMENT_MAX_LINES - 1),
      }),
    [],
  );
  const afterLine = useCallback(
    (line: number) => {
      const comments = byLine.get(line);
      const form = range?.end === line;
      if (!comments && !form) return null;
      return (
        <div className="lc-inline" data-testid={`line-comments-${line}`}>
          {comments?.map((reply) => (
            <InlineComment key={reply.id} reply={reply} thread={thread} lines={lines} />
          ))}
          {form && range && (
            <LineCommentForm thread={thread} range={range} lines={lines} onDone={() => setRange(null)} />
          )}
        </div>
      );
    },
    [byLine, range, thread, lines],
  );
  return <CodeView {...view} onComment={canComment ? onComment : undefined} afterLine={afterLine} />;
}

/** A line comment under its lines: who, what, its suggestion, and a link to it among the replies. */
function InlineComment({
  reply,
  thread,
  lines,
}: {
  reply: ReplyView;
  thread: PasteDetail;
  lines: readonly string[];
}) {
  const anchor = reply.anchor!;
  return (
    <article
      className="lc-comment"
      aria-label={`Comment on ${LINE_COMMENT_TEXTS.lines(anchor.fromLine, anchor.toLine)}`}
    >
      <header className="lc-comment__head">
        <AuthorLine author={reply.author} createdAt={reply.createdAt} />
        <a href={`#reply-${reply.id}`} className="forum-muted lc-comment__link">
          <MessageSquare size={12} aria-hidden="true" /> in replies
        </a>
      </header>
      {reply.hidden ? (
        <p className="tp-hidden-placeholder">[{MODERATION_TEXTS.hiddenPendingReview}]</p>
      ) : (
        <Markdown>{reply.content}</Markdown>
      )}
      <Suggestion
        reply={reply}
        threadId={String(thread.id)}
        authorId={thread.author?.id ?? null}
        lines={lines}
      />
    </article>
  );
}

/**
 * In the replies list, above a line comment's text: which lines it is on (a link to them), or that it
 * is on an older version (a link to that version).
 */
export function LineCommentMark({ reply, threadId }: { reply: ReplyView; threadId: string }) {
  const anchor = reply.anchor;
  if (!anchor) return null;
  const named = LINE_COMMENT_TEXTS.lines(anchor.fromLine, anchor.toLine);
  return reply.outdated ? (
    <p className="lc-mark">
      <span className="tp-badge lc-older">{LINE_COMMENT_TEXTS.olderVersion}</span>{' '}
      <Link to={versionHref(threadId, anchor.version)}>
        <History size={12} aria-hidden="true" /> {named} of version {anchor.version}
      </Link>
    </p>
  ) : (
    <p className="lc-mark">
      <a href={lineHash({ start: anchor.fromLine, end: anchor.toLine })}>{named}</a>
    </p>
  );
}

/** In the replies list, under a line comment's text: its suggested change (APPLY for the author). */
export function LineCommentSuggestion({ reply, threadId }: { reply: ReplyView; threadId: string }) {
  const paste = usePasteLines();
  const content = paste?.content;
  const lines = useMemo(() => (content === undefined ? null : pasteLines(content)), [content]);
  if (!reply.anchor || reply.suggestion === undefined) return null;
  return <Suggestion reply={reply} threadId={threadId} authorId={paste?.authorId ?? null} lines={lines} />;
}

/**
 * A comment's suggested change as a diff of its lines; APPLY for the paste's author while it still
 * applies (not applied, its lines unchanged), or which version applied it.
 */
function Suggestion({
  reply,
  threadId,
  authorId,
  lines,
}: {
  reply: ReplyView;
  threadId: string;
  authorId: number | null;
  /** The paste's lines now (null: not known here). */
  lines: readonly string[] | null;
}) {
  const { user } = useCurrentUser();
  const confirm = useConfirm();
  const apply = useApplySuggestion(threadId);
  const anchor = reply.anchor;
  if (!anchor || reply.suggestion === undefined || reply.hidden) return null;
  const old = reply.outdated || !lines ? null : lines.slice(anchor.fromLine - 1, anchor.toLine);
  const next = suggestionLines(reply.suggestion);
  const applied = reply.suggestionApplied ?? null;
  const isAuthor = user !== null && user.id === authorId;
  const onApply = async () => {
    const ok = await confirm({
      title: 'Apply this suggestion?',
      description: `${LINE_COMMENT_TEXTS.lines(anchor.fromLine, anchor.toLine)} become the suggested text, as a new version crediting ${reply.author?.username ?? 'its author'}.`,
      confirmLabel: 'APPLY',
    });
    if (!ok) return;
    apply.mutateAsync(reply.id).then(
      (edited) => toast({ title: 'Suggestion applied', description: `Version ${edited.revisions}` }),
      () => undefined,
    );
  };
  return (
    <div className="lc-suggestion" aria-label="Suggested change">
      <div className="lc-suggestion__head">
        <span className="tp-badge tp-badge--accent">
          <GitPullRequestArrow size={11} aria-hidden="true" /> SUGGESTED CHANGE
        </span>
        {applied !== null ? (
          <Link to={versionHref(threadId, applied)} className="forum-muted lc-applied">
            <Check size={12} aria-hidden="true" /> {LINE_COMMENT_TEXTS.applied(applied)}
          </Link>
        ) : (
          isAuthor &&
          old !== null && (
            <Button variant="primary" size="sm" loading={apply.isPending} onClick={() => void onApply()}>
              APPLY
            </Button>
          )
        )}
      </div>
      <pre className="lc-diff">
        {old?.map((line, i) => (
          <span key={`-${i}`} className="lc-diff__line lc-diff__line--removed">
            {line}
            {'\n'}
          </span>
        ))}
        {next.map((line, i) => (
          <span key={`+${i}`} className="lc-diff__line lc-diff__line--added">
            {line}
            {'\n'}
          </span>
        ))}
        {next.length === 0 && <span className="forum-muted">(removes the lines)</span>}
      </pre>
    </div>
  );
}

/**
 * The form under the selected lines: a comment, and SUGGEST A CHANGE (a small editor prefilled with the
 * lines). It names the paste's current version, read from its history.
 */
function LineCommentForm({
  thread,
  range,
  lines,
  onDone,
}: {
  thread: PasteDetail;
  range: LineRange;
  lines: readonly string[];
  onDone: () => void;
}) {
  const id = useId();
  const selected = lines.slice(range.start - 1, range.end).join('\n');
  const [content, setContent] = useState('');
  const [suggesting, setSuggesting] = useState(false);
  const [suggestion, setSuggestion] = useState(selected);
  const versions = useQuery(revisionsQuery({ kind: 'thread', id: thread.id }));
  const create = useCreateReply(String(thread.id));
  const version = versions.data?.revisions[0]?.n;
  const named = LINE_COMMENT_TEXTS.lines(range.start, range.end);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (content.trim() === '' || version === undefined) return;
    create.mutate(
      {
        content,
        parentId: null,
        anchor: { fromLine: range.start, toLine: range.end, version },
        ...(suggesting ? { suggestion } : {}),
      },
      {
        onSuccess: (posted) => {
          toast(
            'held' in posted
              ? { title: MODERATION_TEXTS.heldOwn, description: posted.message }
              : { title: 'Comment posted' },
          );
          onDone();
        },
      },
    );
  };

  return (
    <form className="lc-form" aria-label={`Comment on ${named}`} onSubmit={submit}>
      <p className="lc-form__title">
        Comment on <strong>{named}</strong>
      </p>
      <label htmlFor={`${id}-comment`} className="tp-sr-only">
        Your comment on {named}
      </label>
      <Textarea
        id={`${id}-comment`}
        autoFocus
        value={content}
        rows={3}
        disabled={create.isPending}
        placeholder="Comment on these lines... (Markdown supported)"
        onChange={(event) => setContent(event.target.value)}
      />
      {suggesting && (
        <>
          <label htmlFor={`${id}-suggestion`} className="lc-form__label">
            Suggested text for {named}
          </label>
          <Textarea
            id={`${id}-suggestion`}
            className="lc-form__suggestion"
            value={suggestion}
            rows={Math.min(12, Math.max(2, range.end - range.start + 2))}
            spellCheck={false}
            disabled={create.isPending}
            onChange={(event) => setSuggestion(event.target.value)}
          />
        </>
      )}
      <FormActions>
        <Button
          variant="ghost"
          size="sm"
          aria-pressed={suggesting}
          onClick={() => setSuggesting((on) => !on)}
        >
          <GitPullRequestArrow size={12} aria-hidden="true" />
          SUGGEST A CHANGE
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone}>
          CANCEL
        </Button>
        <Button
          type="submit"
          variant="primary"
          size="sm"
          disabled={content.trim() === '' || version === undefined}
          loading={create.isPending}
        >
          POST COMMENT
        </Button>
      </FormActions>
    </form>
  );
}
