import { ADMIN_MESSAGES } from './admin.js';
import { POST_MESSAGES } from './paste-views.js';
import {
  ADMIN_USER_ACTIONS,
  type AdminRowActions,
  type AdminUserAction,
  adminActionRefusal,
  adminRowActions,
  hasAvatar,
} from './permissions.js';

type Role = 'member' | 'admin' | 'owner';
/** Another account of that role, or the viewer's own (for the owner, their own is the owner's). */
type Target = Role | 'self';

const ACCOUNTS: Record<Role, { id: number; isAdmin: boolean; isOwner: boolean }> = {
  owner: { id: 1, isAdmin: true, isOwner: true },
  admin: { id: 2, isAdmin: true, isOwner: false },
  member: { id: 3, isAdmin: false, isOwner: false },
};
/** Other accounts of each role, targets that are not the viewer (there is one owner only). */
const OTHERS: Record<Exclude<Role, 'owner'>, { id: number; isAdmin: boolean; isOwner: boolean }> = {
  admin: { id: 12, isAdmin: true, isOwner: false },
  member: { id: 13, isAdmin: false, isOwner: false },
};

const OK = null;
const DENIED = POST_MESSAGES.adminRequired;
const SELF = ADMIN_MESSAGES.cannotActOnSelf;
const PROTECTED = ADMIN_MESSAGES.ownerProtected;
const ADMINS_BY_OWNER = ADMIN_MESSAGES.onlyOwnerDeletesAdmins;
const ROLE_BY_OWNER = ADMIN_MESSAGES.onlyOwnerChangesAdmins;
const PEERS_BY_OWNER = ADMIN_MESSAGES.onlyOwnerActsOnAdmins;

const ALL_OK = Object.fromEntries(ADMIN_USER_ACTIONS.map((action) => [action, OK])) as Record<
  AdminUserAction,
  null
>;

/**
 * Every cell of the permission table, written out by hand; the backend's admin.spec.ts checks the same cells
 * over HTTP.
 */
const TABLE: Record<Role, Partial<Record<Target, Record<AdminUserAction, string | null>>>> = {
  member: {
    member: {
      ban: DENIED,
      unban: DENIED,
      rename: DENIED,
      avatar: DENIED,
      delete: DENIED,
      grades: DENIED,
      role: DENIED,
      silence: DENIED,
      unsilence: DENIED,
      spammer: DENIED,
    },
    admin: {
      ban: DENIED,
      unban: DENIED,
      rename: DENIED,
      avatar: DENIED,
      delete: DENIED,
      grades: DENIED,
      role: DENIED,
      silence: DENIED,
      unsilence: DENIED,
      spammer: DENIED,
    },
    owner: {
      ban: DENIED,
      unban: DENIED,
      rename: DENIED,
      avatar: DENIED,
      delete: DENIED,
      grades: DENIED,
      role: DENIED,
      silence: DENIED,
      unsilence: DENIED,
      spammer: DENIED,
    },
    self: {
      ban: DENIED,
      unban: DENIED,
      rename: DENIED,
      avatar: DENIED,
      delete: DENIED,
      grades: DENIED,
      role: DENIED,
      silence: DENIED,
      unsilence: DENIED,
      spammer: DENIED,
    },
  },
  admin: {
    member: {
      ban: OK,
      unban: OK,
      rename: OK,
      avatar: OK,
      delete: OK,
      grades: OK,
      role: ROLE_BY_OWNER,
      silence: OK,
      unsilence: OK,
      spammer: OK,
    },
    // Another admin's account is the owner's alone.
    admin: {
      ban: PEERS_BY_OWNER,
      unban: PEERS_BY_OWNER,
      rename: PEERS_BY_OWNER,
      avatar: PEERS_BY_OWNER,
      delete: ADMINS_BY_OWNER,
      grades: PEERS_BY_OWNER,
      role: ROLE_BY_OWNER,
      silence: PEERS_BY_OWNER,
      unsilence: PEERS_BY_OWNER,
      spammer: ADMINS_BY_OWNER,
    },
    owner: {
      ban: PROTECTED,
      unban: PROTECTED,
      rename: PROTECTED,
      avatar: PROTECTED,
      delete: PROTECTED,
      grades: PROTECTED,
      role: PROTECTED,
      silence: PROTECTED,
      unsilence: PROTECTED,
      spammer: PROTECTED,
    },
    self: {
      ban: SELF,
      unban: OK,
      rename: OK,
      avatar: OK,
      delete: SELF,
      grades: OK,
      role: ROLE_BY_OWNER,
      silence: SELF,
      unsilence: OK,
      spammer: SELF,
    },
  },
  owner: {
    member: ALL_OK,
    admin: ALL_OK,
    // The owner's own row, the owner target: protected, the owner's own VIP grades included.
    self: {
      ban: SELF,
      unban: PROTECTED,
      rename: PROTECTED,
      avatar: PROTECTED,
      delete: SELF,
      grades: PROTECTED,
      role: PROTECTED,
      silence: SELF,
      unsilence: PROTECTED,
      spammer: SELF,
    },
  },
};

const CELLS = (Object.keys(TABLE) as Role[]).flatMap((viewer) =>
  (Object.keys(TABLE[viewer]) as Target[]).flatMap((target) =>
    ADMIN_USER_ACTIONS.map((action) => [viewer, target, action, TABLE[viewer][target]![action]] as const),
  ),
);

function targetOf(viewer: Role, target: Target) {
  if (target === 'self') return ACCOUNTS[viewer];
  return target === 'owner' ? ACCOUNTS.owner : OTHERS[target];
}

describe('adminActionRefusal: the permission table', () => {
  it('has every viewer × target × action', () => {
    // member and admin viewers: 4 targets; the owner's own account is the owner target: 3.
    expect(CELLS).toHaveLength((4 + 4 + 3) * ADMIN_USER_ACTIONS.length);
    expect(ADMIN_USER_ACTIONS).toEqual([
      'ban',
      'unban',
      'rename',
      'avatar',
      'delete',
      'grades',
      'role',
      'silence',
      'unsilence',
      'spammer',
    ]);
  });

  it.each(CELLS)('%s → %s target → %s: %s', (viewer, target, action, outcome) => {
    expect(adminActionRefusal(ACCOUNTS[viewer], targetOf(viewer, target), action)).toBe(outcome);
  });
});

describe('hasAvatar', () => {
  it('is true with an avatarUrl or a profileImageUrl, false with neither', () => {
    expect(hasAvatar({ avatarUrl: 'https://cdn.test/a.png', profileImageUrl: null })).toBe(true);
    expect(hasAvatar({ avatarUrl: null, profileImageUrl: 'https://cdn.test/p.png' })).toBe(true);
    expect(hasAvatar({ avatarUrl: null, profileImageUrl: null })).toBe(false);
    expect(hasAvatar({ avatarUrl: '', profileImageUrl: '' })).toBe(false);
  });
});

describe('adminRowActions: what the admin screen offers on a row', () => {
  const row = (overrides: Partial<Parameters<typeof adminRowActions>[1]> = {}) => ({
    id: 3,
    isOwner: false,
    isAdmin: false,
    isBanned: false,
    avatarUrl: null,
    profileImageUrl: null,
    ...overrides,
  });
  const admin = { id: 7, isAdmin: true, isOwner: false };
  const owner = { id: 1, isAdmin: true, isOwner: true };
  const offered = (actions: AdminRowActions) =>
    Object.entries(actions)
      .filter(([, on]) => on)
      .map(([name]) => name);

  it('offers nothing on the owner row, to anyone, the owner included', () => {
    expect(offered(adminRowActions(admin, row({ id: 1, isOwner: true, isAdmin: true })))).toEqual([
      'protected',
    ]);
    expect(offered(adminRowActions(owner, row({ id: 1, isOwner: true, isAdmin: true })))).toEqual([
      'protected',
    ]);
    expect(
      offered(
        adminRowActions(
          owner,
          row({ id: 1, isOwner: true, isAdmin: true, avatarUrl: 'https://cdn.test/a.png' }),
        ),
      ),
    ).toEqual(['protected']);
  });

  it('lets an admin ban, rename, grade and delete a member, and delete an avatar only when there is one', () => {
    expect(offered(adminRowActions(admin, row()))).toEqual([
      'ban',
      'rename',
      'grades',
      'delete',
      'silence',
      'spammer',
    ]);
    expect(offered(adminRowActions(admin, row({ avatarUrl: 'https://cdn.test/a.png' })))).toEqual([
      'ban',
      'rename',
      'deleteAvatar',
      'grades',
      'delete',
      'silence',
      'spammer',
    ]);
    // The avatar shown may be the profile image, which the server deletes too.
    expect(offered(adminRowActions(admin, row({ profileImageUrl: 'https://cdn.test/p.png' })))).toEqual([
      'ban',
      'rename',
      'deleteAvatar',
      'grades',
      'delete',
      'silence',
      'spammer',
    ]);
    expect(offered(adminRowActions(admin, row({ isBanned: true })))).toEqual([
      'unban',
      'rename',
      'grades',
      'delete',
      'silence',
      'spammer',
    ]);
  });

  it("keeps every action on another admin's account, and admin rights, to the owner", () => {
    expect(offered(adminRowActions(admin, row({ isAdmin: true })))).toEqual([]);
    expect(
      offered(
        adminRowActions(admin, row({ isAdmin: true, isBanned: true, avatarUrl: 'https://cdn.test/a.png' })),
      ),
    ).toEqual([]);
    const all = ['ban', 'rename', 'grades', 'role', 'delete', 'silence', 'spammer'];
    expect(offered(adminRowActions(owner, row({ isAdmin: true })))).toEqual(all);
    expect(offered(adminRowActions(owner, row()))).toEqual(all);
  });

  it('never offers to ban, delete or demote oneself', () => {
    expect(offered(adminRowActions(admin, row({ id: 7, isAdmin: true })))).toEqual(['rename', 'grades']);
  });

  it('offers UNSILENCE while a silence holds, SILENCE once it has ended', () => {
    const now = Date.parse('2026-01-02T00:00:00Z');
    const silenced = adminRowActions(admin, row({ silencedUntil: '2026-01-03T00:00:00.000Z' }), now);
    expect([silenced.silence, silenced.unsilence]).toEqual([false, true]);
    const ended = adminRowActions(admin, row({ silencedUntil: '2026-01-01T00:00:00.000Z' }), now);
    expect([ended.silence, ended.unsilence]).toEqual([true, false]);
    const never = adminRowActions(admin, row({ silencedUntil: null }), now);
    expect([never.silence, never.unsilence]).toEqual([true, false]);
  });

  it('offers nothing to a viewer who is not an admin', () => {
    expect(offered(adminRowActions({ id: 7, isAdmin: false, isOwner: false }, row()))).toEqual([]);
  });
});
