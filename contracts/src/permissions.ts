import { ADMIN_MESSAGES } from './admin.js';
import { POST_MESSAGES } from './paste-views.js';

/** What staff do to a member's account in the admin panel. */
export const ADMIN_USER_ACTIONS = [
  'ban',
  'unban',
  'rename',
  'avatar',
  'delete',
  'grades',
  'role',
  // Silence (read-only for a time), and delete spammer (the account, its posts and chat).
  'silence',
  'unsilence',
  'spammer',
] as const;
export type AdminUserAction = (typeof ADMIN_USER_ACTIONS)[number];

/** The signed-in member acting (the viewer of the admin panel). */
export interface PermissionActor {
  /** Null: the command line, which is no member (never acting on itself). */
  id: number | null;
  isAdmin: boolean;
  isOwner: boolean;
}

/** The account acted on (a row of the users table). */
export interface PermissionTarget {
  id: number;
  isAdmin: boolean;
  isOwner: boolean;
}

/**
 * The permission table, the one home of its rules: null when `actor` may do `action` to `target`, else
 * the server's 403 message. The server refuses with it, the admin screen offers only what it allows.
 * The rules, one per line below; why they are so: docs/permissions.md.
 */
export function adminActionRefusal(
  actor: PermissionActor,
  target: PermissionTarget,
  action: AdminUserAction,
): string | null {
  if (!actor.isAdmin) return POST_MESSAGES.adminRequired;
  const self = actor.id === target.id;
  if (self && SELF_REFUSED.includes(action)) return ADMIN_MESSAGES.cannotActOnSelf;
  if (target.isOwner) return ADMIN_MESSAGES.ownerProtected;
  if (target.isAdmin && !self && !actor.isOwner) {
    if (action === 'delete' || action === 'spammer') return ADMIN_MESSAGES.onlyOwnerDeletesAdmins;
    if (action !== 'role') return ADMIN_MESSAGES.onlyOwnerActsOnAdmins;
  }
  if (action === 'role' && !actor.isOwner) return ADMIN_MESSAGES.onlyOwnerChangesAdmins;
  return null;
}

/** What nobody does to their own account. */
const SELF_REFUSED: readonly AdminUserAction[] = ['ban', 'delete', 'silence', 'spammer'];

/** Whether the member has an avatar to delete (avatarUrl, else profileImageUrl). */
export function hasAvatar(user: { avatarUrl: string | null; profileImageUrl: string | null }): boolean {
  return Boolean(user.avatarUrl || user.profileImageUrl);
}

/** Which actions a row of the admin users table offers its viewer. */
export interface AdminRowActions {
  /** The owner's row: 'Protected Account' instead of actions. */
  protected: boolean;
  ban: boolean;
  unban: boolean;
  rename: boolean;
  deleteAvatar: boolean;
  grades: boolean;
  /** MAKE ADMIN / REVOKE ADMIN. */
  role: boolean;
  delete: boolean;
  silence: boolean;
  unsilence: boolean;
  /** DELETE SPAMMER. */
  spammer: boolean;
}

/** Whether a silence (or a timed ban) ending at `until` still holds at `now`: one that ended is lifted. */
export function stillHolds(until: string | null | undefined, now = Date.now()): boolean {
  return until != null && Date.parse(until) > now;
}

/**
 * What the admin screen offers on a row: each action the permission table allows, and of those BAN only
 * to an active member, UNBAN only to a banned one, DELETE AVATAR only when there is one; SILENCE
 * to a member not silenced, UNSILENCE to a silenced one.
 */
export function adminRowActions(
  actor: PermissionActor,
  row: PermissionTarget & {
    isBanned: boolean;
    avatarUrl: string | null;
    profileImageUrl: string | null;
    silencedUntil?: string | null;
  },
  now = Date.now(),
): AdminRowActions {
  const silenced = stillHolds(row.silencedUntil, now);
  const may = (action: AdminUserAction) => adminActionRefusal(actor, row, action) === null;
  return {
    protected: row.isOwner,
    ban: may('ban') && !row.isBanned,
    unban: may('unban') && row.isBanned,
    rename: may('rename'),
    deleteAvatar: may('avatar') && hasAvatar(row),
    grades: may('grades'),
    role: may('role'),
    delete: may('delete'),
    silence: may('silence') && !silenced,
    unsilence: may('unsilence') && silenced,
    spammer: may('spammer'),
  };
}
