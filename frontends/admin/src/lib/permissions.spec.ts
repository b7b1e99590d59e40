import { rowActions } from './permissions';

const row = (overrides: Partial<Parameters<typeof rowActions>[0]> = {}) => ({
  id: 3,
  isOwner: false,
  isAdmin: false,
  isBanned: false,
  avatarUrl: null,
  ...overrides,
});
const admin = { id: 7, isAdmin: true, isOwner: false };
const owner = { id: 1, isAdmin: true, isOwner: true };
const offered = (actions: ReturnType<typeof rowActions>) =>
  Object.entries(actions)
    .filter(([, on]) => on)
    .map(([name]) => name);

describe('rowActions (SPEC §6)', () => {
  it('offers nothing on the owner row, to anyone, the owner included', () => {
    expect(offered(rowActions(row({ id: 1, isOwner: true, isAdmin: true }), admin))).toEqual(['protected']);
    expect(offered(rowActions(row({ id: 1, isOwner: true, isAdmin: true }), owner))).toEqual(['protected']);
  });

  it('lets an admin ban, rename, grade and delete a member, and delete an avatar only when there is one', () => {
    expect(offered(rowActions(row(), admin))).toEqual(['ban', 'rename', 'grades', 'delete']);
    expect(offered(rowActions(row({ avatarUrl: 'https://cdn.test/a.png' }), admin))).toEqual([
      'ban',
      'rename',
      'deleteAvatar',
      'grades',
      'delete',
    ]);
    expect(offered(rowActions(row({ isBanned: true }), admin))).toEqual([
      'unban',
      'rename',
      'grades',
      'delete',
    ]);
  });

  it('keeps the deletion of an admin account and admin rights to the owner', () => {
    expect(offered(rowActions(row({ isAdmin: true }), admin))).toEqual(['ban', 'rename', 'grades']);
    expect(offered(rowActions(row({ isAdmin: true }), owner))).toEqual([
      'ban',
      'rename',
      'grades',
      'role',
      'delete',
    ]);
  });

  it('never offers to ban, delete or demote oneself', () => {
    expect(offered(rowActions(row({ id: 7, isAdmin: true }), admin))).toEqual(['rename', 'grades']);
  });

  it('offers nothing to a viewer who is not an admin', () => {
    expect(offered(rowActions(row(), { id: 7, isAdmin: false, isOwner: false }))).toEqual([]);
  });
});
