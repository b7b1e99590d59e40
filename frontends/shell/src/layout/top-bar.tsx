import { API, PAGES, type CurrentUser } from '@termpaste/contracts';
import { Avatar, Badge, Button, IconButton } from '@termpaste/ui';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useQuery } from '@tanstack/react-query';
import { Bell, Home, Mail, PanelLeft, Search } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { logout } from './sidebar';

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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    if (q) navigate(PAGES.search(q));
  };
  return (
    <form role="search" className="shell-search" onSubmit={submit}>
      <Search aria-hidden="true" size={16} className="shell-search__icon" />
      <input
        type="search"
        className="tp-input shell-search__input"
        placeholder="grep pastes..."
        aria-label="Search pastes"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </form>
  );
}

function UnreadBadge() {
  const unread = useQuery<number>({ queryKey: [API.notificationsUnreadCount] });
  const count = typeof unread.data === 'number' ? unread.data : 0;
  if (count <= 0) return null;
  return (
    <Badge variant="danger" className="shell-topbar__badge" aria-label={`${count} unread`}>
      {count > 99 ? '99+' : count}
    </Badge>
  );
}

function UserMenu({ user }: { user: CurrentUser }) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="shell-usermenu__trigger" aria-label="User menu">
          <Avatar user={user} size={28} />
          <span className="shell-usermenu__name">{user.username}</span>
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="shell-menu" align="end" sideOffset={6}>
          <DropdownMenu.Label className="shell-menu__label">
            <span className="shell-menu__user">{user.username}</span>
            <span className="shell-muted">{user.reputation} reputation</span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="shell-menu__sep" />
          <DropdownMenu.Item className="shell-menu__item" asChild>
            <Link to={PAGES.user(user.id)}>Profile</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item className="shell-menu__item" asChild>
            <Link to={PAGES.settings}>Settings</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="shell-menu__sep" />
          <DropdownMenu.Item className="shell-menu__item shell-menu__item--danger" onSelect={logout}>
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
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
      <Link to="/" className="shell-topbar__home" aria-label="Home">
        <Home aria-hidden="true" size={18} />
        <span className="shell-topbar__brand">termpaste</span>
      </Link>
      {user ? (
        <>
          <SearchBox />
          <nav className="shell-topbar__actions" aria-label="Account">
            <Link to={PAGES.notifications} className="shell-topbar__icon" aria-label="Notifications">
              <Bell aria-hidden="true" size={18} />
              <UnreadBadge />
            </Link>
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
