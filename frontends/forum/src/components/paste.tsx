import { API, PAGES, pasteKeyed, type PasteDetail } from '@termpaste/contracts';
import { ASCIICAST } from '@termpaste/contracts/asciicast';
import { OWN_POSTS_TEXTS } from '@termpaste/contracts/own-posts';
import { Button, Card, CopyButton, FlagButton, Markdown } from '@termpaste/ui';
import { Eye, FileText, GitFork, Pencil } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useVote } from '../api/pastes';
import { AuthorLine } from './author-line';
import { CastPlayer } from './cast-player/cast-player';
import { isCodeLanguage } from './code-view';
import { CommentableCode } from './line-comments';
import { EditPasteForm } from './edit-paste-form';
import { EditedMark } from './edited-mark';
import { BurnMark, ExpiryMark } from './expiry';
import { OwnPasteDelete } from './own-paste-delete';
import { PasteModeration } from './paste-moderation';
import { PasteFlags } from './paste-flags';
import { VoteButtons } from './vote-buttons';
import { TagLinks } from './tags';
import { VisibilityBadge } from './visibility';
import { SignatureMark } from './signature';

/**
 * The paste on its page: its buttons, votes, flags, author and views, and its content (Markdown, or the code
 * view).
 */
export function Paste({
  thread,
  signedIn,
  isAdmin,
  canEdit = false,
  canVote = true,
  isAuthor = false,
  gone = false,
  canDelete = false,
}: {
  thread: PasteDetail;
  signedIn: boolean;
  isAdmin: boolean;
  /** False where votes are off (a paste that burns after reading, or one gone meanwhile). */
  canVote?: boolean;
  /** The reader wrote it (a burning paste tells its author so). */
  isAuthor?: boolean;
  /** Shown from memory once gone from the server (burnt by its reading): no link to its raw text. */
  gone?: boolean;
  /** Its author, or an admin (editRefusal): EDIT opens the edit form in place of the paste. */
  canEdit?: boolean;
  /** Its author (not an admin, who has the moderation buttons): DELETE, after a confirm prompt. */
  canDelete?: boolean;
}) {
  const vote = useVote(String(thread.id));
  const [editing, setEditing] = useState(false);
  const language = thread.language ?? null;
  const code = isCodeLanguage(language);
  const codeView = code && (
    <CommentableCode
      thread={thread}
      gone={gone}
      text={thread.content ?? ''}
      language={language}
      lineLinks
      {...(gone ? {} : { rawHref: API.threadRaw(thread.id) })}
      languageHref={language === null ? undefined : PAGES.language(language)}
      label="Paste content"
      className="forum-thread__content"
    />
  );

  return (
    <Card
      title="PASTE"
      actions={
        <>
          {pasteKeyed(thread) && !gone && (
            <CopyButton
              text={() => new URL(PAGES.thread(thread.id), window.location.origin).href}
              label="COPY LINK"
              aria-label="Copy the link"
            />
          )}
          {!code && (
            <>
              <CopyButton text={thread.content ?? ''} label="COPY PASTE" aria-label="Copy paste" />
              {!gone && (
                <a
                  href={API.threadRaw(thread.id)}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="tp-button tp-button--ghost tp-button--sm"
                >
                  <FileText size={12} aria-hidden="true" />
                  RAW
                </a>
              )}
            </>
          )}
        </>
      }
    >
      <div className="forum-split">
        <VoteButtons
          what="paste"
          score={thread.voteScore}
          myVote={thread.myVote}
          disabled={!signedIn || !canVote}
          pending={vote.isPending}
          onVote={(value) => vote.mutate({ threadId: thread.id, value })}
        />
        <div className="forum-split__main">
          {editing ? (
            <EditPasteForm thread={thread} onDone={() => setEditing(false)} />
          ) : (
            <>
              <h1 className="forum-thread__title">
                <PasteFlags thread={thread} />
                <VisibilityBadge visibility={thread.visibility} />
                {thread.title}
              </h1>
              <TagLinks tags={thread.tags} className="forum-thread__tags" />
              <p className="forum-thread__meta">
                <AuthorLine author={thread.author} createdAt={thread.createdAt} />
                <span className="forum-muted forum-card__stat">
                  <Eye size={13} aria-hidden="true" />
                  {thread.viewCount} {thread.viewCount === 1 ? 'view' : 'views'}
                </span>
                {thread.expiresAt && <ExpiryMark expiresAt={thread.expiresAt} />}
                {thread.burnAfterReading && isAuthor && <BurnMark />}
                {thread.editedAt && (
                  <EditedMark editedAt={thread.editedAt} to={PAGES.threadRevisions(thread.id)} />
                )}
                {thread.forkCount > 0 && (
                  <a href="#forks" className="forum-muted forum-card__stat">
                    <GitFork size={13} aria-hidden="true" />
                    {OWN_POSTS_TEXTS.forks(thread.forkCount)}
                  </a>
                )}
                {canEdit && (
                  <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>
                    <Pencil size={12} aria-hidden="true" />
                    EDIT
                  </Button>
                )}
                {/* A paste whose content is not shown (it burns after reading) cannot be copied. */}
                {signedIn && thread.content !== undefined && (
                  <Link
                    to={`${PAGES.newThread}?fork=${encodeURIComponent(thread.id)}`}
                    className="tp-button tp-button--ghost tp-button--sm"
                  >
                    <GitFork size={12} aria-hidden="true" />
                    {OWN_POSTS_TEXTS.fork}
                  </Link>
                )}
                {canDelete && <OwnPasteDelete thread={thread} />}
                {signedIn && !isAuthor && !gone && (
                  <FlagButton targetType="paste" targetId={thread.id} what={`paste ${thread.title}`} />
                )}
              </p>
              {thread.forkedFrom && <ForkedFrom forkedFrom={thread.forkedFrom} />}
              {thread.signature && <SignatureMark signature={thread.signature} threadId={thread.id} />}
              {isAdmin && <PasteModeration thread={thread} />}
              {language === ASCIICAST ? (
                <CastPlayer
                  content={thread.content ?? ''}
                  {...(gone ? {} : { rawHref: API.threadRaw(thread.id) })}
                  fallback={codeView}
                />
              ) : code ? (
                codeView
              ) : (
                <Markdown className="forum-thread__content">{thread.content ?? ''}</Markdown>
              )}
            </>
          )}
        </div>
      </div>
    </Card>
  );
}

/** Where a fork came from: a link to its original, or that the original is gone (or not for this reader). */
function ForkedFrom({ forkedFrom }: { forkedFrom: NonNullable<PasteDetail['forkedFrom']> }) {
  return (
    <p className="forum-muted forum-thread__fork">
      <GitFork size={13} aria-hidden="true" />
      {forkedFrom.id === null ? (
        OWN_POSTS_TEXTS.forkedFromDeleted
      ) : (
        <span>
          {OWN_POSTS_TEXTS.forkedFrom} <Link to={PAGES.thread(forkedFrom.id)}>{forkedFrom.title}</Link>
        </span>
      )}
    </p>
  );
}
