import { API, editRefusal, TEXTS, type ReplyView, type ThreadDetail } from '@termpaste/contracts';
import {
  Button,
  Card,
  preloadMarkdown,
  scrollBehavior,
  Spinner,
  useCurrentUser,
  useKeyboardAction,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';
import { threadQuery } from '../api/forum';
import { NotFoundCard } from '../components/not-found';
import { Paste } from '../components/paste';
import { Replies } from '../components/replies';
import { ReplyForm } from '../components/reply-form';
import { useGoBack } from '../lib/go-back';
import { isNotFoundError, isRecordId } from '../lib/not-found';

/**
 * The page of a loaded paste. It decides who may reply, and holds the reply being answered: a reply's
 * REPLY button in the tree sets it, the form below posts under it.
 */
function ThreadView({ thread }: { thread: ThreadDetail }) {
  const { user } = useCurrentUser();
  const signedIn = user !== null;
  const isAdmin = Boolean(user?.isAdmin);
  const goBack = useGoBack();
  const [target, setTarget] = useState<ReplyView | null>(null);
  const textareaRef = useRef<HTMLTextAreaElement | null>(null);
  const canReply = signedIn && (!thread.isLocked || isAdmin);
  // A target deleted meanwhile (by an admin) is no target: the server would refuse its parentId.
  const liveTarget = target && thread.replies.some((reply) => reply.id === target.id) ? target : null;

  const replyTo = (reply: ReplyView) => {
    setTarget(reply);
    textareaRef.current?.focus();
    textareaRef.current?.scrollIntoView({ block: 'center', behavior: scrollBehavior() });
  };
  // r (issue 18): answers the reply j and k selected, else the paste.
  useKeyboardAction('reply', (selected) => {
    if (!canReply) return;
    const reply = thread.replies.find((r) => String(r.id) === selected?.dataset.replyId);
    if (reply) return replyTo(reply);
    setTarget(null);
    textareaRef.current?.focus();
    textareaRef.current?.scrollIntoView({ block: 'center', behavior: scrollBehavior() });
  });

  return (
    <div className="forum-stack">
      <div>
        <Button variant="ghost" size="sm" onClick={goBack}>
          <ArrowLeft size={14} aria-hidden="true" />
          BACK
        </Button>
      </div>
      <Paste
        thread={thread}
        signedIn={signedIn}
        isAdmin={isAdmin}
        canEdit={
          user !== null &&
          editRefusal(user, { authorId: thread.author?.id ?? null, locked: thread.isLocked }) === null
        }
      />
      <Replies thread={thread} signedIn={signedIn} isAdmin={isAdmin} onReply={canReply ? replyTo : null} />

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
