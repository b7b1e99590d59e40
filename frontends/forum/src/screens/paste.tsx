import { API, PAGES, pasteKeyed, TEXTS, type ReplyView, type PasteDetail } from '@termpaste/contracts';
import { MODERATION_MESSAGES, MODERATION_TEXTS } from '@termpaste/contracts/moderation';
import { OWN_POSTS_MESSAGES, OWN_POSTS_TEXTS } from '@termpaste/contracts/own-posts';
import { editRefusal } from '@termpaste/contracts/revisions';
import {
  Button,
  apiRequest,
  Card,
  errorMessage,
  isHiddenItem,
  JumpPill,
  Notice,
  PersonGate,
  preloadMarkdown,
  PresenceCount,
  scrollBehavior,
  Spinner,
  useCurrentUser,
  useKeyboardAction,
  useTakeOverPaint,
} from '@termpaste/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, EyeOff, Flame } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { pasteQuery, useReadOnce } from '../api/pastes';
import { usePasteLive, type PasteLive } from '../api/live';
import { hasExpired, useExpired } from '../components/expiry';
import { Forks } from '../components/forks';
import { NotFoundCard } from '../components/not-found';
import { Paste } from '../components/paste';
import { PasteEmbed } from '../components/paste-embed';
import { Replies } from '../components/replies';
import { ReplyForm } from '../components/reply-form';
import { useGoBack } from '../lib/go-back';
import { isNotFoundError, isPasteRef } from '../lib/not-found';
import { PasteWatchBar } from '../components/watch-controls';

/** The element of a reply in the tree. */
const replyElement = (id: number) => document.getElementById(`reply-${id}`);

/** Whether any of the element is inside the window (the page may scroll in any container). */
function inView(element: HTMLElement | null): boolean {
  if (!element) return false;
  const box = element.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

/**
 * Replies that arrived out of view, for the pill that takes the reader there; one scrolled into view (or
 * deleted) drops out.
 */
function useRepliesOutOfView(thread: PasteDetail, live: PasteLive): [number[], () => void] {
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
 * Whether a paste the server says is gone (its live `paste_deleted`) was in fact hidden pending review:
 * asked once, so the page can say which while it keeps the reader's draft.
 */
function useGoneAsHidden(id: string, gone: boolean): boolean {
  const answer = useQuery({
    queryKey: [API.threads, id, 'gone-as-hidden'],
    queryFn: () =>
      apiRequest('GET', API.thread(id)).then(
        () => false,
        (error: unknown) => isHiddenError(error),
      ),
    enabled: gone,
    retry: false,
    staleTime: Infinity,
    refetchInterval: false,
  });
  return gone && answer.data === true;
}

/**
 * The page of a loaded paste. It decides who may reply and holds the reply being answered (a reply's
 * REPLY sets it). Live changes arrive in place; the draft and its target stay.
 */
function PasteView({
  thread,
  live,
  burnt = false,
}: {
  thread: PasteDetail;
  live: PasteLive;
  /** Its one showing, after its reader burnt it: gone from the server, kept in this page only. */
  burnt?: boolean;
}) {
  const { user } = useCurrentUser();
  const signedIn = user !== null;
  const isAdmin = Boolean(user?.isAdmin);
  const isAuthor = user !== null && user.id === thread.author?.id;
  const goBack = useGoBack();
  const [target, setTarget] = useState<ReplyView | null>(null);
  const textareaRef = useRef<HTMLTextAreaElement | null>(null);
  const expired = useExpired(thread.expiresAt);
  const canReply = signedIn && !thread.burnAfterReading && (!thread.isLocked || isAdmin);
  // A target deleted meanwhile (by an admin) is no target: the server would refuse its parentId.
  const liveTarget = target && thread.replies.some((reply) => reply.id === target.id) ? target : null;

  const [outOfView, jumpToNew] = useRepliesOutOfView(thread, live);
  const hiddenNow = useGoneAsHidden(String(thread.id), live.deleted && !burnt);
  useNoIndex(pasteKeyed(thread));

  // Stable: the replies are memoised, and redraw only when theirs changes.
  const replyTo = useCallback((reply: ReplyView) => {
    setTarget(reply);
    textareaRef.current?.focus();
    textareaRef.current?.scrollIntoView({ block: 'center', behavior: scrollBehavior() });
  }, []);
  // r: answers the reply j and k selected, else the paste.
  useKeyboardAction('reply', (selected) => {
    if (!canReply) return;
    const reply = thread.replies.find((r) => String(r.id) === selected?.dataset.replyId);
    if (reply) return replyTo(reply);
    setTarget(null);
    textareaRef.current?.focus();
    textareaRef.current?.scrollIntoView({ block: 'center', behavior: scrollBehavior() });
  });

  // Expired while open (its timer, or the server's word): gone for everyone, this page included.
  if (!burnt && (expired || (live.deleted && hasExpired(thread.expiresAt)))) return <ExpiredCard />;

  return (
    <div className="forum-stack">
      <div className="forum-thread-top">
        <Button variant="ghost" size="sm" onClick={goBack}>
          <ArrowLeft size={14} aria-hidden="true" />
          BACK
        </Button>
        {!burnt && <PasteEmbed thread={thread} />}
        <PasteWatchBar thread={thread} />
        <PresenceCount
          count={live.readers}
          label="reading"
          title="Members reading this paste now"
          reserve={!burnt && signedIn}
        />
      </div>
      {burnt && <Notice tone="note">{OWN_POSTS_TEXTS.burnShown}</Notice>}
      {isHiddenItem(thread) && (
        <Notice tone="error" className="forum-hidden-own">
          {MODERATION_TEXTS.hiddenOwn}
        </Notice>
      )}
      {live.deleted && (
        <Notice tone="error">
          {hiddenNow ? `${MODERATION_MESSAGES.pasteHidden} now.` : 'This paste was deleted.'} What you are
          writing stays here until you leave the page.
        </Notice>
      )}
      <PersonGate authorId={thread.author?.id} wrap={(note) => <Card title="PASTE">{note}</Card>}>
        <Paste
          thread={thread}
          signedIn={signedIn}
          isAdmin={isAdmin}
          canEdit={
            !burnt &&
            user !== null &&
            editRefusal(user, { authorId: thread.author?.id ?? null, locked: thread.isLocked }) === null
          }
          canVote={!thread.burnAfterReading}
          isAuthor={isAuthor}
          gone={burnt}
          canDelete={user !== null && !isAdmin && thread.author?.id === user.id}
        />
      </PersonGate>
      <Replies thread={thread} signedIn={signedIn} isAdmin={isAdmin} onReply={canReply ? replyTo : null} />

      <Card title="POST A REPLY">
        {!signedIn ? (
          <p className="forum-signed-out">
            You must be logged in to post replies{' '}
            <a href={API.login} className="tp-button tp-button--primary tp-button--sm">
              LOGIN
            </a>
          </p>
        ) : thread.burnAfterReading ? (
          <p className="forum-muted">{OWN_POSTS_MESSAGES.burnNoReplies}</p>
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
      {thread.forkCount > 0 && <Forks thread={thread} />}
      <JumpPill count={outOfView.length} noun="new reply" plural="new replies" onJump={jumpToNew} />
    </div>
  );
}

/**
 * A paste hidden pending review, to everyone but its author (the API's 404 says so): not the generic
 * not-found card, so a reader who followed a link knows it may come back.
 */
function HiddenCard() {
  const { user } = useCurrentUser();
  return (
    <Card titleLevel={1} title="HIDDEN">
      <div className="forum-hidden" role="status">
        <EyeOff size={28} aria-hidden="true" />
        <p className="forum-hidden__title">[{MODERATION_TEXTS.hiddenPendingReview}]</p>
        <p className="forum-muted">{MODERATION_MESSAGES.pasteHidden}. The staff will decide soon.</p>
        {user?.isAdmin && <Link to={PAGES.adminReview}>Open the review queue</Link>}
      </div>
      <Link to={PAGES.home} className="forum-not-found__home">
        <ArrowLeft size={14} aria-hidden /> Back to home
      </Link>
    </Card>
  );
}

/** The API's 404 for a paste hidden pending review (its message says so). */
const isHiddenError = (error: unknown) =>
  isNotFoundError(error) && errorMessage(error, '') === MODERATION_MESSAGES.pasteHidden;

/** A paste that expired while its page was open. */
function ExpiredCard() {
  return (
    <Card titleLevel={1} title="EXPIRED">
      <p className="forum-error forum-not-found">{OWN_POSTS_TEXTS.expired}</p>
      <Link to={PAGES.home} className="forum-not-found__home">
        <ArrowLeft size={14} aria-hidden /> Back to home
      </Link>
    </Card>
  );
}

/** What pages show instead of the live updates of a paste that is gone (burnt by its reading). */
const NO_LIVE: PasteLive = { readers: undefined, deleted: false, arrived: [], seen: () => undefined };

/**
 * A paste that burns after reading, to a reader other than its author: its title and the warning, and
 * SHOW AND DELETE, which reads it once (`read-once`, which deletes it) and shows it.
 */
function BurnGate({ thread, onShown }: { thread: PasteDetail; onShown: (shown: PasteDetail) => void }) {
  const read = useReadOnce(String(thread.id));
  return (
    <Card titleLevel={1} title="BURN AFTER READING" className="forum-narrow">
      <div className="forum-burn">
        <p className="forum-burn__title">{thread.title}</p>
        <Notice tone="error">{OWN_POSTS_TEXTS.burnWarning}</Notice>
        <p className="forum-muted">
          Its link shows it to one reader only. Once shown, it cannot be opened again, by you or anyone.
        </p>
        <div className="forum-burn__actions">
          <Button
            variant="primary"
            loading={read.isPending}
            onClick={() => read.mutate(undefined, { onSuccess: onShown })}
          >
            <Flame size={14} aria-hidden="true" />
            {OWN_POSTS_TEXTS.burnShow}
          </Button>
        </div>
      </div>
    </Card>
  );
}

/** /thread/{id}: the paste, its votes and moderation, the reply tree and the reply form. */
export function PasteScreen() {
  const { id = '' } = useParams();
  const client = useQueryClient();
  // A burning paste once shown: in memory only (a reload reads the server, where it is gone).
  const [burnt, setBurnt] = useState<PasteDetail | null>(null);
  // The paste is Markdown: its renderer downloads while the paste does.
  useEffect(() => void preloadMarkdown(), []);
  useEffect(() => setBurnt(null), [id]);
  const thread = useQuery({ ...pasteQuery(id), enabled: isPasteRef(id) && burnt === null });
  const { user } = useCurrentUser();
  const live = usePasteLive(id, isPasteRef(id), user?.id ?? null);
  // Its page without the content is of no use any more.
  useEffect(() => {
    if (burnt) client.removeQueries({ queryKey: pasteQuery(id).queryKey, exact: true });
  }, [burnt, client, id]);

  useTakeOverPaint(burnt !== null || thread.data !== undefined || thread.isError || !isPasteRef(id));

  if (burnt && String(burnt.id) === id) return <PasteView thread={burnt} live={NO_LIVE} burnt />;
  if (isHiddenError(thread.error)) return <HiddenCard />;
  if (!isPasteRef(id) || isNotFoundError(thread.error)) return <NotFoundCard text={TEXTS.pasteNotFound} />;
  if (thread.isError && !thread.data) {
    return (
      <Card titleLevel={1} title="ERROR">
        <p className="forum-error">Could not load this paste. Try again in a moment.</p>
      </Card>
    );
  }
  if (!thread.data) return <Spinner label="Loading paste..." />;
  if (thread.data.burnAfterReading && thread.data.content === undefined) {
    return <BurnGate key={thread.data.id} thread={thread.data} onShown={setBurnt} />;
  }
  return <PasteView key={thread.data.id} thread={thread.data} live={live} />;
}
