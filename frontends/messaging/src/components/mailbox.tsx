import { LAYOUT, MESSAGING_TEXTS, type PrivateMessage } from '@termpaste/contracts';
import { Avatar, Badge, ListFooter, Skeleton, UserName, cx, relativeTime } from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { mailboxQuery, type Mailbox } from '../api/messaging';
import { fullDate } from '../lib/time';

function MessageRow({
  message,
  box,
  selected,
  onOpen,
}: {
  message: PrivateMessage;
  box: Mailbox;
  selected: boolean;
  onOpen: (message: PrivateMessage) => void;
}) {
  const other = box === 'inbox' ? message.sender : message.recipient;
  // Sent to an e-mail address: the address as typed stands for the recipient.
  const address = box === 'sent' ? message.recipientAddress : null;
  const unread = box === 'inbox' && !message.isRead;
  return (
    <li>
      <button
        type="button"
        className={cx('msg-row', unread && 'msg-row--unread')}
        aria-current={selected ? 'true' : undefined}
        data-testid="message-row"
        onClick={() => onOpen(message)}
      >
        <Avatar user={other} size={32} alt="" className="msg-row__avatar" />
        <span className="msg-row__main">
          <span className="msg-row__top">
            <span className="msg-row__who">
              {box === 'sent' && <span className="msg-muted">To </span>}
              {address !== null ? (
                <span className="msg-address">{address}</span>
              ) : other ? (
                <UserName user={other} />
              ) : (
                <span className="msg-muted">Anonymous</span>
              )}
            </span>
            {unread && <Badge variant="accent">NEW</Badge>}
            <time className="msg-row__time" dateTime={message.createdAt} title={fullDate(message.createdAt)}>
              {relativeTime(message.createdAt)}
            </time>
          </span>
          <span className="msg-row__subject">{message.subject}</span>
        </span>
      </button>
    </li>
  );
}

/**
 * One mailbox: who, NEW while unread, subject and time, newest first, in a scrolling pane; LOAD MORE reads
 * the next page.
 */
export function MailboxList({
  box,
  selectedId,
  onOpen,
  labelledBy,
  id,
}: {
  box: Mailbox;
  selectedId: number | null;
  onOpen: (message: PrivateMessage) => void;
  labelledBy: string;
  id: string;
}) {
  const list = useInfiniteQuery(mailboxQuery(box));
  const messages = list.data?.pages.flatMap((page) => page.messages) ?? null;

  let body;
  if (list.isError && !list.data) {
    body = <p className="msg-error">Could not load messages. Try again in a moment.</p>;
  } else if (messages === null) {
    body = (
      <ul className="msg-rows" aria-busy="true">
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i} className="msg-row msg-row--placeholder" data-testid="skeleton-row">
            <Skeleton width={32} height={32} />
            <span className="msg-row__main">
              <Skeleton width="45%" height="0.8rem" />
              <Skeleton width="75%" height="0.8rem" />
            </span>
          </li>
        ))}
      </ul>
    );
  } else if (messages.length === 0) {
    body = (
      <p className="msg-empty">{box === 'inbox' ? MESSAGING_TEXTS.noMessages : 'No sent messages yet'}</p>
    );
  } else {
    body = (
      <>
        <ul className="msg-rows">
          {messages.map((message) => (
            <MessageRow
              key={message.id}
              message={message}
              box={box}
              selected={message.id === selectedId}
              onOpen={onOpen}
            />
          ))}
        </ul>
        <ListFooter className="msg-footer" list={list}>
          {messages.length} message{messages.length === 1 ? '' : 's'}
        </ListFooter>
      </>
    );
  }

  return (
    <div
      id={id}
      role="tabpanel"
      aria-labelledby={labelledBy}
      className="msg-mailbox"
      style={{ height: LAYOUT.inboxHeightPx }}
      tabIndex={0}
    >
      {body}
    </div>
  );
}
