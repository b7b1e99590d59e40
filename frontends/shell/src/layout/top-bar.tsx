import { API, PAGES, SEARCH_QUERY_MAX, type CurrentUser } from '@termpaste/contracts';
import { Badge, Button, IconButton, useKeyboardAction } from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { Bell, Home, Mail, PanelLeft, Search } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { UserMenuButton } from './user-menu-button';

/** The query of the search page being shown, or '' elsewhere. */
function useShownQuery(): string {
  const { pathname, search } = useLocation();
  return pathname === PAGES.search() ? (new URLSearchParams(search).get('q') ?? '') : '';
}

function SearchBox() {
  // On the search page the box holds what was searched for; leaving it empties the box.
  const shown = useShownQuery();
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  useKeyboardAction('search', () => input.current?.focus());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    if (q) navigate(PAGES.search(q));
  };
  return (
    <form role="search" aria-label="Quick search" className="shell-search" onSubmit={submit}>
      <Search aria-hidden="true" size={16} className="shell-search__icon" />
      <input
        ref={input}
        type="search"
        className="tp-input shell-search__input"
        placeholder="grep pastes..."
        aria-label="Search pastes"
        aria-keyshortcuts="/"
        maxLength={SEARCH_QUERY_MAX}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </form>
  );
}

/**
 * The top bar's notifications link, with the unread count when there is one; named with the count as it
 * shows it (WCAG 2.5.3: its name holds its visible text).
 */
function NotificationsLink() {
  const unread = useQuery<number>({ queryKey: [API.notificationsUnreadCount] });
  const count = typeof unread.data === 'number' ? unread.data : 0;
  const shown = count > 99 ? '99+' : String(count);
  return (
    <Link
      to={PAGES.notifications}
      className="shell-topbar__icon"
      aria-label={count > 0 ? `Notifications, ${shown} unread` : 'Notifications'}
    >
      <Bell aria-hidden="true" size={18} />
      {count > 0 && (
        <Badge variant="danger" className="shell-topbar__badge">
          {shown}
        </Badge>
      )}
    </Link>
  );
}

const loadUserMenu = () => import('./user-menu');
const RadixUserMenu = lazy(loadUserMenu);

/**
 * The user menu's button; the menu itself (user-menu.tsx) is fetched when it is first opened, or as the
 * pointer or the focus reaches the button, and opens as soon as it is there.
 */
function UserMenu({ user }: { user: CurrentUser }) {
  const [opened, setOpened] = useState(false);
  if (opened) {
    return (
      <Suspense fallback={<UserMenuButton user={user} aria-haspopup="menu" aria-expanded="true" />}>
        <RadixUserMenu user={user} />
      </Suspense>
    );
  }
  const preload = () => void loadUserMenu().catch(() => undefined);
  return (
    <UserMenuButton
      user={user}
      aria-haspopup="menu"
      aria-expanded="false"
      onPointerEnter={preload}
      onFocus={preload}
      onClick={() => setOpened(true)}
      onKeyDown={(event) => {
        if (event.key !== 'ArrowDown') return;
        event.preventDefault();
        setOpened(true);
      }}
    />
  );
}

export function TopBar({
  user,
  onToggleSidebar,
}: {
  user: CurrentUser | null;
  onToggleSidebar?: () => void;
}) {
  return (
    <header className="shell-topbar">
      {onToggleSidebar && (
        <IconButton
          label="Toggle sidebar (Ctrl+B)"
          icon={<PanelLeft size={18} />}
          onClick={onToggleSidebar}
        />
      )}
      {/* Named by the word it shows (a voice-control user says what they see), and where it leads. */}
      <Link to="/" className="shell-topbar__home" aria-label="termpaste home">
        <Home aria-hidden="true" size={18} />
        <span className="shell-topbar__brand">termpaste</span>
      </Link>
      {user ? (
        <>
          <SearchBox />
          <nav className="shell-topbar__actions" aria-label="Account">
            <NotificationsLink />
            <Link to={PAGES.messages} className="shell-topbar__icon" aria-label="Messages">
              <Mail aria-hidden="true" size={18} />
            </Link>
            <UserMenu user={user} />
          </nav>
        </>
      ) : (
        <nav className="shell-topbar__actions">
          <Button variant="primary" size="sm" onClick={() => (window.location.href = API.login)}>
            ACCESS
          </Button>
        </nav>
      )}
    </header>
  );
}
