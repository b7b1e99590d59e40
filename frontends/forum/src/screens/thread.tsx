import { API, pasteKeyed, TEXTS, type ReplyView, type ThreadDetail } from '@termpaste/contracts';
import { editRefusal } from '@termpaste/contracts/revisions';
import {
  Button,
  Card,
  JumpPill,
  Notice,
  preloadMarkdown,
  PresenceCount,
  scrollBehavior,
  Spinner,
  useCurrentUser,
  useKeyboardAction,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';
import { threadQuery } from '../api/forum';
import { useThreadLive, type ThreadLive } from '../api/live';
import { NotFoundCard } from '../components/not-found';
import { Paste } from '../components/paste';
import { Replies } from '../components/replies';
import { ReplyForm } from '../components/reply-form';
import { useGoBack } from '../lib/go-back';
import { isNotFoundError, isPasteRef } from '../lib/not-found';

/** The element of a reply in the tree. */
const replyElement = (id: number) => document.getElementById(`reply-${id}`);

/** Whether any of the element is inside the window (the page may scroll in any container). */
function inView(element: HTMLElement | null): boolean {
  if (!element) return false;
  const box = element.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

/**
 * Replies others posted that arrived out of view (issue 18), for the pill that takes the reader there.
 * One scrolled into view drops out; a deleted one too.
 */
function useRepliesOutOfView(thread: ThreadDetail, live: ThreadLive): [number[], () => void] {
  const [unseen, setUnseen] = useState<number[]>([]);
  const { arrived, seen } = live;

  // Once the page holds an arrival (after it was read again), it is in view or it is news.
  useLayoutEffect(() => {
    const held = arrived.filter((id) => thread.replies.some((reply) => reply.id === id));
    if (held.length === 0) return;
    seen(held);
    const out = held.filter((id) => !inView(replyElement(id)));
    if (out.length > 0) setUnseen((ids) => [...ids, ...out.filter((id) => !ids.includes(id))]);
  }, [arrived, thread.replies, seen]);

  useEffect(() => {
    if (unseen.length === 0) return;
    const check = () =>
      setUnseen((ids) => {
        const left = ids.filter((id) => !inView(replyElement(id)));
        return left.length === ids.length ? ids : left;
      });
    // Capturing: whichever element scrolls the page.
    document.addEventListener('scroll', check, { capture: true, passive: true });
    return () => document.removeEventListener('scroll', check, { capture: true });
  }, [unseen.length]);

  const pending = unseen.filter((id) => thread.replies.some((reply) => reply.id === id));
  const jump = () => {
    // The first of them on the page (the tree's order).
    const first = pending
      .map(replyElement)
      .filter((element): element is HTMLElement => element !== null)
      .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))[0];
    first?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    setUnseen([]);
  };
  return [pending, jump];
}

/** `<meta name="robots" content="noindex">` while `on` (an unlisted or private paste is shown). */
function useNoIndex(on: boolean): void {
  useEffect(() => {
    if (!on) return;
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, [on]);
}

/**
 * The page of a loaded paste. It decides who may reply, and holds the reply being answered: a reply's
 * REPLY button in the tree sets it, the form below posts under it. Live (issue 18): what others change
 * arrives in place; the draft and its target stay.
 */
function ThreadView({ thread, live }: { thread: ThreadDetail; live: ThreadLive }) {
  const { user } = useCurrentUser();
  const signedIn = user !== null;
  const isAdmin = Boolean(user?.isAdmin);
  const goBack = useGoBack();
  const [target, setTarget] = useState<ReplyView | null>(null);
  const textareaRef = useRef<HTMLTextAreaElement | null>(null);
  const canReply = signedIn && (!thread.isLocked || isAdmin);
  // A target deleted meanwhile (by an admin) is no target: the server would refuse its parentId.
  const liveTarget = target && thread.replies.some((reply) => reply.id === target.id) ? target : null;

  const [outOfView, jumpToNew] = useRepliesOutOfView(thread, live);
  useNoIndex(pasteKeyed(thread));

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
      <div className="forum-thread-top">
        <Button variant="ghost" size="sm" onClick={goBack}>
          <ArrowLeft size={14} aria-hidden="true" />
          BACK
        </Button>
        <PresenceCount count={live.readers} label="reading" title="Members reading this paste now" />
      </div>
      {live.deleted && (
        <Notice tone="error">
          This paste was deleted by staff. What you are writing stays here until you leave the page.
        </Notice>
      )}
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
      <JumpPill count={outOfView.length} noun="new reply" plural="new replies" onJump={jumpToNew} />
    </div>
  );
}

/** /thread/{id} (SPEC §2): the paste, its votes and moderation, the reply tree and the reply form. */
export function ThreadScreen() {
  const { id = '' } = useParams();
  // The paste is Markdown: its renderer downloads while the paste does.
  useEffect(() => void preloadMarkdown(), []);
  const thread = useQuery({ ...threadQuery(id), enabled: isPasteRef(id) });
  const { user } = useCurrentUser();
  const live = useThreadLive(id, isPasteRef(id), user?.id ?? null);

  if (!isPasteRef(id) || isNotFoundError(thread.error)) return <NotFoundCard text={TEXTS.threadNotFound} />;
  if (thread.isError && !thread.data) {
    return (
      <Card titleLevel={1} title="ERROR">
        <p className="forum-error">Could not load this paste. Try again in a moment.</p>
      </Card>
    );
  }
  if (!thread.data) return <Spinner label="Loading paste..." />;
  return <ThreadView key={thread.data.id} thread={thread.data} live={live} />;
}
