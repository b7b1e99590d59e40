import type { CurrentUser } from './schemas.js';

/** A signed-in member for component and browser tests; override what a test is about. */
export function sampleCurrentUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 7,
    username: 'neo',
    email: 'neo@zion.example',
    firstName: 'Thomas',
    lastName: 'Anderson',
    avatarUrl: null,
    profileImageUrl: null,
    bio: null,
    reputation: 42,
    activePremiumRank: null,
    ownedPremiumRanks: [],
    threadCount: 3,
    replyCount: 5,
    createdAt: '2026-01-01T00:00:00.000Z',
    isAdmin: false,
    isOwner: false,
    isBanned: false,
    emailVerified: true,
    ...overrides,
  };
}
