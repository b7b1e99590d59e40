import { LAYOUT, MESSAGING_TEXTS } from '@termpaste/contracts';
import { Card, IconButton, Spinner, useCurrentUser } from '@termpaste/ui';
import { MessagesSquare, X } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState, type CSSProperties } from 'react';

const loadPanel = () => import('../components/chat-panel');
const ChatPanel = lazy(loadPanel);

/** The panel's window while its contents are fetched: the same title bar, a spinner for the log. */
export function ChatPanelLoading({ onClose }: { onClose: () => void }) {
  return (
    <Card
      title={MESSAGING_TEXTS.globalChat}
      className="msg-popover__card"
      actions={<IconButton label="Close global chat" icon={<X size={16} />} size="sm" onClick={onClose} />}
    >
      <Spinner className="msg-popover__loading" />
    </Card>
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
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-modal="false"
          aria-label={MESSAGING_TEXTS.globalChat}
          className="msg-popover__panel"
        >
          <Suspense fallback={<ChatPanelLoading onClose={close} />}>
            <ChatPanel userId={userId} onClose={close} />
          </Suspense>
        </div>
      )}
      <button
        ref={toggle}
        type="button"
        className="msg-popover__toggle"
        aria-label="Open global chat"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((value) => !value)}
        // The panel's code is fetched on the way to a click, so it usually opens at once.
        onPointerEnter={() => void loadPanel().catch(() => undefined)}
        onFocus={() => void loadPanel().catch(() => undefined)}
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
