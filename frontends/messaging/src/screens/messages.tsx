import { LIMITS, MESSAGING_TEXTS, type PrivateMessage } from '@termpaste/contracts';
import { Button, Card, scrollBehavior } from '@termpaste/ui';
import { Inbox, Send, SquarePen } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useMarkMessageRead, type Mailbox } from '../api/messaging';
import { ComposeForm, type ComposeDraft } from '../components/compose-form';
import { MailboxList } from '../components/mailbox';
import { MessageDetail } from '../components/message-detail';

/** What the right-hand pane shows. `key` gives every compose a fresh form. */
type Pane =
  | { kind: 'hint' }
  | { kind: 'read'; box: Mailbox; message: PrivateMessage }
  | { kind: 'compose'; draft: ComposeDraft; key: number };

let composeCount = 0;
const compose = (draft: ComposeDraft): Pane => ({ kind: 'compose', draft, key: ++composeCount });

/** 'Re: subject' for a reply, without stacking 'Re: Re: ...', within the subject limit. */
export function replySubject(subject: string): string {
  const base = subject.replace(/^\s*(re:\s*)+/i, '');
  return `Re: ${base}`.slice(0, LIMITS.subjectMax);
}

const BOXES: Array<{ box: Mailbox; label: string; icon: typeof Inbox }> = [
  { box: 'inbox', label: 'INBOX', icon: Inbox },
  { box: 'sent', label: 'SENT', icon: Send },
];

/**
 * /messages: the mailbox (INBOX and SENT) and the open message, the compose form or a hint. `?to=name`
 * opens the compose form addressed to that member (a profile's 'Send message' link).
 */
export function MessagesScreen() {
  const [params, setParams] = useSearchParams();
  const toParam = params.get('to')?.trim() || null;
  const [box, setBox] = useState<Mailbox>('inbox');
  const [pane, setPane] = useState<Pane>(() =>
    toParam ? compose({ to: toParam, subject: '' }) : { kind: 'hint' },
  );
  // A new ?to= while the screen is open (another 'Send message' link) opens a new compose form.
  const [seenTo, setSeenTo] = useState(toParam);
  if (toParam !== seenTo) {
    setSeenTo(toParam);
    if (toParam) setPane(compose({ to: toParam, subject: '' }));
  }

  const markRead = useMarkMessageRead();
  const ids = { inbox: useId(), sent: useId(), panel: useId() };
  const tabs = useRef<Record<Mailbox, HTMLButtonElement | null>>({ inbox: null, sent: null });
  const paneRef = useRef<HTMLDivElement>(null);

  // On a narrow screen the pane sits under the list: bring what was opened into view.
  const paneKey =
    pane.kind === 'read' ? `read-${pane.message.id}` : pane.kind === 'compose' ? pane.key : null;
  useEffect(() => {
    if (paneKey === null || !window.matchMedia('(max-width: 900px)').matches) return;
    paneRef.current?.scrollIntoView({ behavior: scrollBehavior(), block: 'start' });
  }, [paneKey]);

  const showHint = () => {
    setPane({ kind: 'hint' });
    if (params.has('to')) {
      setParams(
        (current) => {
          current.delete('to');
          return current;
        },
        { replace: true },
      );
    }
  };
  const open = (message: PrivateMessage) => {
    setPane({ kind: 'read', box, message });
    if (box === 'inbox' && !message.isRead) markRead.mutate(message.id);
  };
  const reply = (message: PrivateMessage) =>
    setPane(compose({ to: message.sender?.username ?? '', subject: replySubject(message.subject) }));

  const onTabKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next: Mailbox = box === 'inbox' ? 'sent' : 'inbox';
    setBox(next);
    tabs.current[next]?.focus();
  };

  const selectedId = pane.kind === 'read' && pane.box === box ? pane.message.id : null;

  return (
    <div className="msg-messages">
      <Card
        titleLevel={1}
        title="MESSAGES"
        className="msg-messages__list"
        actions={
          <Button size="sm" onClick={() => setPane(compose({ to: '', subject: '' }))}>
            <SquarePen aria-hidden="true" size={14} />
            COMPOSE
          </Button>
        }
      >
        <div role="tablist" aria-label="Mailbox" className="msg-tabs" onKeyDown={onTabKey}>
          {BOXES.map(({ box: value, label, icon: Icon }) => (
            <button
              key={value}
              ref={(element) => {
                tabs.current[value] = element;
              }}
              id={ids[value]}
              type="button"
              role="tab"
              className="msg-tab"
              aria-selected={box === value}
              aria-controls={ids.panel}
              tabIndex={box === value ? 0 : -1}
              onClick={() => setBox(value)}
            >
              <Icon aria-hidden="true" size={14} />
              {label}
            </button>
          ))}
        </div>
        <MailboxList
          key={box}
          id={ids.panel}
          labelledBy={ids[box]}
          box={box}
          selectedId={selectedId}
          onOpen={open}
        />
      </Card>

      <div className="msg-messages__pane" ref={paneRef}>
        {pane.kind === 'read' ? (
          <MessageDetail message={pane.message} box={pane.box} onClose={showHint} onReply={reply} />
        ) : pane.kind === 'compose' ? (
          <ComposeForm key={pane.key} draft={pane.draft} onCancel={showHint} onSent={showHint} />
        ) : (
          <Card title="READER" className="msg-hint-card">
            <div className="msg-hint">
              <p className="tp-prompt">{MESSAGING_TEXTS.selectMessage}</p>
              <Button variant="outline" size="sm" onClick={() => setPane(compose({ to: '', subject: '' }))}>
                NEW MESSAGE
              </Button>
            </div>
          </Card>
        )}
      </div>
    </div>
  );
}
