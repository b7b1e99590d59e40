import { LAYOUT, MESSAGING_TEXTS, type RemoteWidgetProps } from '@termpaste/contracts';
import { Card, Dock, DockButton, IconButton, Spinner, useCurrentUser } from '@termpaste/ui';
import { MessagesSquare, X } from 'lucide-react';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
} from 'react';

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

function Popover({ userId, defaultOpen }: { userId: number; defaultOpen: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const close = useCallback(() => {
    setOpen(false);
    toggle.current?.focus();
  }, []);

  // Opened by a click on the shell's stand-in for this button (REMOTE_WIDGETS' facade), which had the
  // focus and is gone: the focus comes to this button, unless the panel (already loaded) took it.
  const [focusOnMount] = useState(defaultOpen);
  useLayoutEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (focusOnMount && lost) toggle.current?.focus();
  }, [focusOnMount]);

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
    <Dock className="msg-popover" style={size}>
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
      <DockButton
        ref={toggle}
        label={MESSAGING_TEXTS.openGlobalChat}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((value) => !value)}
        // The panel's code is fetched on the way to a click, so it usually opens at once.
        onPointerEnter={() => void loadPanel().catch(() => undefined)}
        onFocus={() => void loadPanel().catch(() => undefined)}
      >
        {open ? <X aria-hidden="true" size={24} /> : <MessagesSquare aria-hidden="true" size={24} />}
      </DockButton>
    </Dock>
  );
}

/** The global chat popover on home (nothing signed out); mounted open when its facade was clicked. */
export function ChatPopover({ defaultOpen = false }: RemoteWidgetProps) {
  const { user } = useCurrentUser();
  if (!user) return null;
  return <Popover userId={user.id} defaultOpen={defaultOpen} />;
}
