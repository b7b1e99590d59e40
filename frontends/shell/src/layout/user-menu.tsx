// Fetched when the member first opens the menu (top-bar.tsx): most visits never do.
import { PAGES, type CurrentUser } from '@termpaste/contracts';
import { useKeyboardHelp } from '@termpaste/ui';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { logout } from './sidebar';
import { UserMenuButton } from './user-menu-button';

/**
 * The menu under the member's name: profile, settings, the keyboard shortcuts, logout. Opens at once
 * when first mounted.
 */
export default function UserMenu({ user }: { user: CurrentUser }) {
  const openKeyboardHelp = useKeyboardHelp();
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    // Not modal: a menu button's menu (WAI-ARIA) leaves the page as it is; a modal one hid it with
    // aria-hidden while its links stayed focusable (axe: aria-hidden-focus).
    <DropdownMenu.Root defaultOpen modal={false}>
      <DropdownMenu.Trigger asChild>
        <UserMenuButton user={user} ref={trigger} />
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
          {openKeyboardHelp && (
            <DropdownMenu.Item
              className="shell-menu__item"
              onSelect={() => openKeyboardHelp(trigger.current)}
            >
              Keyboard shortcuts <kbd className="shell-menu__kbd">?</kbd>
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Separator className="shell-menu__sep" />
          <DropdownMenu.Item className="shell-menu__item shell-menu__item--danger" onSelect={logout}>
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
