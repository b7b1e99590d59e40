import { MESSAGING_TEXTS, PAGES, premiumRankStyle, type ChatMessage } from '@termpaste/contracts';
import { MODERATION_TEXTS } from '@termpaste/contracts/moderation';
import {
  AnsiText,
  FlagButton,
  PersonGate,
  PresenceCount,
  Skeleton,
  Spinner,
  UserName,
  cx,
} from '@termpaste/ui';
import { useLayoutEffect, useRef, type CSSProperties } from 'react';
import { Link } from 'react-router-dom';
import { chatClock, fullDate } from '../lib/time';

/** How close to the end (pixels) still counts as reading the newest lines. */
const STICK_TO_BOTTOM_PX = 48;

/**
 * A chat author: the name, then the active premium rank in brackets, styled by its `rank-…` class; deleted:
 * 'Anonymous'.
 */
export function ChatAuthor({ author }: { author: ChatMessage['author'] }) {
  if (!author) return <span className="msg-chat-author msg-muted">Anonymous</span>;
  const rank = author.activePremiumRank;
  return (
    <span className="msg-chat-author">
      <Link to={PAGES.profile(author.id)} className="msg-chat-author__name">
        <UserName user={author} />
      </Link>
      {rank && (
        <>
          {' '}
          <span className={cx('msg-chat-author__rank', `rank-${premiumRankStyle(rank)}`)}>[{rank}]</span>
        </>
      )}
    </span>
  );
}

/**
 * One chat line: time, author, and the text as written (plain text, line breaks kept; terminal colours
 * shown, other escape sequences dropped). A line hidden pending review shows its placeholder (its author
 * still reads it, marked); others' lines have FLAG.
 */
export function ChatLine({ message, own }: { message: ChatMessage; own: boolean }) {
  const withheld = message.hidden && message.content === '';
  return (
    <li
      className={cx('msg-chat-line', own && 'msg-chat-line--own', message.hidden && 'msg-chat-line--hidden')}
      data-testid="chat-line"
    >
      <time className="msg-chat-line__time" dateTime={message.createdAt} title={fullDate(message.createdAt)}>
        {chatClock(message.createdAt)}
      </time>{' '}
      <ChatAuthor author={message.author} />
      <span className="msg-chat-line__prompt" aria-hidden="true">
        {' > '}
      </span>
      {withheld ? (
        <span className="tp-hidden-placeholder">[{MODERATION_TEXTS.hiddenPendingReview}]</span>
      ) : (
        <span className="msg-chat-line__text">
          {message.hidden && (
            <span className="msg-chat-line__hidden">[{MODERATION_TEXTS.hiddenPendingReview}] </span>
          )}
          <AnsiText text={message.content} />
        </span>
      )}
      {!own && !message.hidden && (
        <FlagButton
          targetType="chat"
          targetId={message.id}
          what={`chat message by ${message.author?.username ?? 'Anonymous'}`}
          className="msg-chat-line__flag"
        />
      )}
    </li>
  );
}

export interface ChatLogProps {
  /** The history as the API gives it, newest first; undefined while it loads. */
  messages: ChatMessage[] | undefined;
  isError: boolean;
  /** The signed-in member: their own lines are marked, and sending one always scrolls to it. */
  userId: number;
  /** The pane's height in pixels; without it the pane fills its container. */
  height?: number;
  className?: string;
}

/**
 * The chat history, oldest at the top and newest at the bottom. It follows new lines to the bottom while
 * the reader is there (or the line is their own), and leaves them be while they scroll back.
 */
export function ChatLog({ messages, isError, userId, height, className }: ChatLogProps) {
  const pane = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const lines = messages ? [...messages].reverse() : undefined;
  const newestId = messages?.[0]?.id;
  const newestIsOwn = messages?.[0]?.author?.id === userId;

  useLayoutEffect(() => {
    const element = pane.current;
    if (!element || newestId === undefined) return;
    if (atBottom.current || newestIsOwn) {
      element.scrollTop = element.scrollHeight;
      atBottom.current = true;
    }
  }, [newestId, newestIsOwn]);

  const style: CSSProperties | undefined = height === undefined ? undefined : { height };
  return (
    <div
      ref={pane}
      className={cx('msg-chat-log', className)}
      style={style}
      role="log"
      aria-label="Chat messages"
      // Said outright, not left to role=log: new messages are read out, politely, as they arrive.
      aria-live="polite"
      aria-relevant="additions"
      tabIndex={0}
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottom.current =
          element.scrollHeight - element.scrollTop - element.clientHeight <= STICK_TO_BOTTOM_PX;
      }}
    >
      {lines === undefined ? (
        isError ? (
          <p className="msg-error">Could not load the chat. Try again in a moment.</p>
        ) : (
          <div className="msg-chat-log__loading">
            {[70, 45, 85, 55, 65].map((width, i) => (
              <Skeleton key={i} width={`${width}%`} height="0.9rem" />
            ))}
            <Spinner label="Loading messages..." />
          </div>
        )
      ) : lines.length === 0 ? (
        <p className="msg-chat-log__empty">{MESSAGING_TEXTS.chatEmpty}</p>
      ) : (
        <ol className="msg-chat-log__lines">
          {lines.map((message) => (
            // A muted member's line collapses (with show), a blocked member's is left out, in a line.
            <PersonGate
              key={message.id}
              authorId={message.author?.id}
              wrap={(note) => (
                <li className="msg-chat-line msg-chat-line--person" data-testid="chat-line">
                  {note}
                </li>
              )}
            >
              <ChatLine message={message} own={message.author?.id === userId} />
            </PersonGate>
          ))}
        </ol>
      )}
    </div>
  );
}

/** How many members are online now (the room's `online_count`), in the chat's title bar; nothing until known. */
export function ChatOnlineCount({ count }: { count: number | undefined }) {
  return <PresenceCount count={count} label="online" title="Members online now" />;
}
