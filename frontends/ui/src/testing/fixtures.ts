import type { PublicAuthor } from '@termpaste/contracts';

/** The time `minutes` before now, as the API writes it. */
export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** trinity (id 3) as others see her: 12 points (a Rookie), no premium grade. */
export function sampleAuthor(overrides: Partial<PublicAuthor> = {}): PublicAuthor {
  return {
    id: 3,
    username: 'trinity',
    avatarUrl: null,
    profileImageUrl: null,
    firstName: null,
    lastName: null,
    reputation: 12,
    activePremiumRank: null,
    ...overrides,
  };
}
