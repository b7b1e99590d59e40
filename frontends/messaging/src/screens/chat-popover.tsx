import { LAYOUT, LIVE_EVENT, MESSAGING_TEXTS, type LiveEvent } from '@termpaste/contracts';
import { Card, IconButton, LiveBadge, refreshQueries, useCurrentUser, useLiveEvents } from '@termpaste/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MessagesSquare, X } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import { chatQuery } from '../api/messaging';
import { ChatLog } from '../components/chat';
import { ChatPopoverComposer } from '../components/chat-composer';

/**
 * The open panel. It exists only while open, so the history (`GET /api/chat`) is read and the live
 * connection held only then (SPEC §4, §7); a `chat_message` event reads the history again.
 */
function ChatPanel({ id, userId, onClose }: { id: string; userId: number; onClose: () => void }) {
  const client = useQueryClient();
  const history = useQuery(chatQuery('popover'));
  const refetch = () => void refreshQueries(client, chatQuery('popover').queryKey);
  const status = useLiveEvents({
    enabled: true,
    onEvent: (event: LiveEvent) => {
      if (event.type === LIVE_EVENT.chatMessage) refetch();
    },
    onOpen: (reconnected) => {
      if (reconnected) refetch();
    },
  });

  return (
    <div
      id={id}
      role="dialog"
      aria-modal="false"
      aria-label={MESSAGING_TEXTS.globalChat}
      className="msg-popover__panel"
    >
      <Card
        title={MESSAGING_TEXTS.globalChat}
        className="msg-popover__card"
        actions={
          <>
            <LiveBadge status={status} />
            <IconButton label="Close global chat" icon={<X size={16} />} size="sm" onClick={onClose} />
          </>
        }
      >
        <ChatLog
          messages={history.data}
          isError={history.isError}
          userId={userId}
          className="msg-popover__log"
        />
        <ChatPopoverComposer autoFocus />
      </Card>
    </div>
  );
}

function Popover({ userId }: { userId: number }) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const close = useCallback(() => {
    setOpen(false);
    toggle.current?.focus();
  }, []);

  // Escape closes the panel wherever the focus is (unless something inside used the key already).
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) close();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, close]);

  const size = { '--msg-popover-size': `${LAYOUT.chatPopoverPx}px` } as CSSProperties;
  return (
    <div className="msg-popover" style={size}>
      {open && <ChatPanel id={panelId} userId={userId} onClose={close} />}
      <button
        ref={toggle}
        type="button"
        className="msg-popover__toggle"
        aria-label="Open global chat"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        {open ? <X aria-hidden="true" size={24} /> : <MessagesSquare aria-hidden="true" size={24} />}
      </button>
    </div>
  );
}

/** The global chat popover on home (SPEC §2): a round button at the bottom left; nothing when signed out. */
export function ChatPopover() {
  const { user } = useCurrentUser();
  if (!user) return null;
  return <Popover userId={user.id} />;
}
