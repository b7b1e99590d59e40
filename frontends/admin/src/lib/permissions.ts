import type { AdminUser, CurrentUser } from '@termpaste/contracts';

/** Which actions a row of the users table offers its viewer. */
export interface RowActions {
  /** The owner's row: 'Protected Account' and no action at all (SPEC §6). */
  protected: boolean;
  ban: boolean;
  unban: boolean;
  rename: boolean;
  deleteAvatar: boolean;
  grades: boolean;
  /** MAKE ADMIN / REVOKE ADMIN: only the owner grants or revokes admin. */
  role: boolean;
  delete: boolean;
}

const NONE: RowActions = {
  protected: false,
  ban: false,
  unban: false,
  rename: false,
  deleteAvatar: false,
  grades: false,
  role: false,
  delete: false,
};

/**
 * SPEC §6, shown only where the backend would allow it: nothing on the owner's row; an admin's account
 * is deleted only by the owner; the avatar is deleted only when there is one; nobody bans, deletes or
 * demotes their own account.
 */
export function rowActions(
  row: Pick<AdminUser, 'id' | 'isOwner' | 'isAdmin' | 'isBanned' | 'avatarUrl'>,
  viewer: Pick<CurrentUser, 'id' | 'isOwner' | 'isAdmin'>,
): RowActions {
  if (row.isOwner) return { ...NONE, protected: true };
  if (!viewer.isAdmin && !viewer.isOwner) return NONE;
  const self = row.id === viewer.id;
  return {
    protected: false,
    ban: !self && !row.isBanned,
    unban: !self && row.isBanned,
    rename: true,
    deleteAvatar: Boolean(row.avatarUrl),
    grades: true,
    role: viewer.isOwner && !self,
    delete: !self && (!row.isAdmin || viewer.isOwner),
  };
}
