import type { CurrentUser } from '@termpaste/contracts';
import { Avatar } from '@termpaste/ui';
import type { ComponentProps } from 'react';

/**
 * The top bar's button with the member's avatar and name that opens the user menu. Its name starts with
 * the name it shows, so a voice-control user can say what they see.
 */
export function UserMenuButton({ user, ...props }: { user: CurrentUser } & ComponentProps<'button'>) {
  return (
    <button
      type="button"
      className="shell-usermenu__trigger"
      aria-label={`${user.username} user menu`}
      {...props}
    >
      <Avatar user={user} size={28} alt="" drawnInitials />
      <span className="shell-usermenu__name">{user.username}</span>
    </button>
  );
}
