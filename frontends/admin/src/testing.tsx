/**
 * Test support for the admin specs: contract-typed fixtures, the admin API stub, and @termpaste/ui/testing's
 * helpers. Only specs import it (the build never bundles it); importing it registers an afterEach that
 * clears the toasts and puts the real fetch back.
 */
import { API, type AdminUser, type AuditEntry, type CurrentUser } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import {
  minutesAgo,
  stubApi,
  urls as allUrls,
  type FetchCall,
  type FetchHandler,
} from '@termpaste/ui/testing';
import { screen, within } from '@testing-library/react';

export * from '@termpaste/ui/testing';

/**
 * The URLs called, in order, but the review count every admin screen reads for its REVIEW tab (the specs
 * of the other tabs list what they read themselves).
 */
export const urls = (calls: FetchCall[]) => allUrls(calls).filter((url) => url !== API.adminReviewCount);

// ---- Fixtures: override what a test is about.

/** A member row of the admin table: trinity (id 3), 120 points, no avatar, active, joined Jan 5, 2026. */
export function sampleAdminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 3,
    username: 'trinity',
    email: 'trinity@zion.example',
    firstName: null,
    lastName: null,
    avatarUrl: null,
    profileImageUrl: null,
    reputation: 120,
    activePremiumRank: null,
    ownedPremiumRanks: [],
    isAdmin: false,
    isOwner: false,
    isBanned: false,
    bannedUntil: null,
    banReason: null,
    silencedUntil: null,
    silenceReason: null,
    createdAt: '2026-01-05T12:00:00.000Z',
    ...overrides,
  };
}

/** root (id 1): the owner, an admin too, 6000 points. */
export const rootRow = () =>
  sampleAdminUser({
    id: 1,
    username: 'root',
    email: 'root@zion.example',
    reputation: 6000,
    isAdmin: true,
    isOwner: true,
    avatarUrl: 'https://cdn.test/root.png',
    createdAt: '2025-12-01T12:00:00.000Z',
  });
/** morpheus (id 8): an admin with an avatar. */
export const morpheusRow = () =>
  sampleAdminUser({
    id: 8,
    username: 'morpheus',
    email: 'morpheus@zion.example',
    isAdmin: true,
    avatarUrl: 'https://cdn.test/morpheus.png',
  });
/** trinity (id 3): a member with an avatar who owns and shows Cyber Ghost. */
export const trinityRow = () =>
  sampleAdminUser({
    avatarUrl: 'https://cdn.test/trinity.png',
    activePremiumRank: 'Cyber Ghost',
    ownedPremiumRanks: ['Cyber Ghost'],
  });
/** tank (id 9): a banned member without an avatar, 3 points. */
export const tankRow = () =>
  sampleAdminUser({ id: 9, username: 'tank', email: 'tank@zion.example', reputation: 3, isBanned: true });
/** neo (id 7, the signed-in sampleCurrentUser) as a row. */
export const neoRow = () =>
  sampleAdminUser({ id: 7, username: 'neo', email: 'neo@zion.example', reputation: 42, isAdmin: true });

/** The viewers: neo as a plain admin, or root the owner. */
export const adminViewer = (): CurrentUser => sampleCurrentUser({ isAdmin: true });
export const ownerViewer = (): CurrentUser =>
  sampleCurrentUser({
    id: 1,
    username: 'root',
    email: 'root@zion.example',
    isAdmin: true,
    isOwner: true,
  });

/** Audit entry 61: morpheus banned tank ten minutes ago. */
export function sampleAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 61,
    action: 'user.ban',
    actorId: 8,
    actorName: 'morpheus',
    targetType: 'user',
    targetId: 9,
    targetLabel: 'tank',
    before: { isBanned: false },
    after: { isBanned: true },
    createdAt: minutesAgo(10),
    ...overrides,
  };
}

// ---- API

export interface AdminState {
  /** What GET /api/admin/users answers (any query string): the rows and the next cursor. */
  users: AdminUser[];
  nextCursor?: string | null;
  /** What GET /api/admin/audit answers (any query string). */
  entries?: AuditEntry[];
}

/**
 * The admin API: GET /api/admin/users… and /api/admin/audit… answer from `state` (a test may change it);
 * other reads 404 and writes go to `onWrite` (200 `{}` by default).
 */
export function adminApi(state: AdminState, onWrite?: FetchHandler) {
  return stubApi((url) => {
    if (url.startsWith(API.adminUsers)) return { users: state.users, nextCursor: state.nextCursor ?? null };
    if (url.startsWith(API.adminAudit)) return { entries: state.entries ?? [], nextCursor: null };
    return undefined;
  }, onWrite);
}

// ---- Queries

/** The body rows of the users table. */
export const userRows = () =>
  within(screen.getByRole('table', { name: 'Users' }))
    .getAllByRole('row')
    .slice(1);

/** The row of one member, by username. */
export const userRow = (username: string) => screen.getByRole('row', { name: username });

/** The action buttons of one member's row, by their labels. */
export const actionLabels = (username: string) => {
  const group = within(userRow(username)).queryByRole('group', { name: `Actions for ${username}` });
  return group
    ? within(group)
        .queryAllByRole('button')
        .map((button) => button.textContent)
    : [];
};
