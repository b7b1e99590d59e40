import { PAGES, type PrivateMessage, type PublicAuthor } from '@termpaste/contracts';
import { Avatar, Button, Card, FlagButton, Markdown, UserName, relativeTime } from '@termpaste/ui';
import { Link } from 'react-router-dom';
import type { Mailbox } from '../api/messaging';
import { fullDate } from '../lib/time';

function Person({ user, address = null }: { user: PublicAuthor | null; address?: string | null }) {
  // Sent to an e-mail address: the address as typed, never whose it is.
  if (address !== null) return <span className="msg-address">{address}</span>;
  if (!user) return <span className="msg-muted">Anonymous</span>;
  return (
    <Link to={PAGES.profile(user.id)} className="msg-person">
      <Avatar user={user} size={22} alt="" />
      <UserName user={user} />
    </Link>
  );
}

/** An open message: subject, From, To, time, Markdown content, REPLY and CLOSE. */
export function MessageDetail({
  message,
  box,
  onClose,
  onReply,
}: {
  message: PrivateMessage;
  box: Mailbox;
  onClose: () => void;
  onReply: (message: PrivateMessage) => void;
}) {
  const canReply = box === 'inbox' && message.sender !== null;
  return (
    <Card
      title="MESSAGE"
      className="msg-detail"
      actions={
        <>
          {canReply && (
            <Button variant="outline" size="sm" onClick={() => onReply(message)}>
              REPLY
            </Button>
          )}
          {canReply && (
            <FlagButton targetType="message" targetId={message.id} what={`message ${message.subject}`} />
          )}
          <Button variant="ghost" size="sm" onClick={onClose}>
            CLOSE
          </Button>
        </>
      }
    >
      <article aria-label={message.subject}>
        <h3 className="msg-detail__subject">{message.subject}</h3>
        <dl className="msg-detail__meta">
          <div>
            <dt>From</dt>
            <dd>
              <Person user={message.sender} />
            </dd>
          </div>
          <div>
            <dt>To</dt>
            <dd>
              <Person user={message.recipient} address={message.recipientAddress} />
            </dd>
          </div>
          <div>
            <dt>Sent</dt>
            <dd>
              <time dateTime={message.createdAt} title={fullDate(message.createdAt)}>
                {relativeTime(message.createdAt)}
              </time>
            </dd>
          </div>
        </dl>
        <div className="msg-detail__content">
          <Markdown>{message.content}</Markdown>
        </div>
      </article>
    </Card>
  );
}
