/** The rank ladder and the premium (VIP) grades: pure functions, so every end derives ranks the same way. */
export interface Rank {
  name: string;
  badge: string;
  /** A CSS class suffix for the colour style: `rank-<style>`. */
  style: string;
  isPremium: boolean;
}

export interface ReputationRank extends Rank {
  /** Reputation at which this rank starts. */
  minReputation: number;
}

export const RANK_LADDER: readonly ReputationRank[] = [
  {
    name: 'Newbie',
    badge: 'NEWBIE',
    style: 'newbie',
    isPremium: false,
    minReputation: Number.NEGATIVE_INFINITY,
  },
  { name: 'Rookie', badge: 'ROOKIE', style: 'rookie', isPremium: false, minReputation: 10 },
  { name: 'Member', badge: 'MEMBER', style: 'member', isPremium: false, minReputation: 50 },
  { name: 'Regular', badge: 'USER', style: 'regular', isPremium: false, minReputation: 100 },
  { name: 'Advanced', badge: 'ADVANCED', style: 'advanced', isPremium: false, minReputation: 250 },
  { name: 'Veteran', badge: 'VETERAN', style: 'veteran', isPremium: false, minReputation: 500 },
  { name: 'Elite', badge: 'ELITE', style: 'elite', isPremium: false, minReputation: 1000 },
  { name: 'Master', badge: 'MASTER', style: 'master', isPremium: false, minReputation: 2500 },
  { name: 'Legend', badge: 'LEGEND', style: 'legend', isPremium: false, minReputation: 5000 },
];

export const PREMIUM_RANK_NAMES = [
  'Elite Hacker',
  'Cyber Ghost',
  'Script Kiddie',
  'Digital Phantom',
] as const;
export type PremiumRankName = (typeof PREMIUM_RANK_NAMES)[number];

/** Premium rank username style: the lower-cased rank name with spaces turned into hyphens. */
export function premiumRankStyle(rankName: string): string {
  return rankName.trim().toLowerCase().replace(/\s+/g, '-');
}

export const PREMIUM_RANKS: readonly Rank[] = PREMIUM_RANK_NAMES.map((name) => ({
  name,
  badge: name.toUpperCase(),
  style: premiumRankStyle(name),
  isPremium: true,
}));

export function isPremiumRankName(name: unknown): name is PremiumRankName {
  return typeof name === 'string' && (PREMIUM_RANK_NAMES as readonly string[]).includes(name);
}

function ladderIndex(reputation: number): number {
  const rep = Number.isFinite(reputation) ? reputation : 0;
  let index = 0;
  RANK_LADDER.forEach((rank, i) => {
    if (rep >= rank.minReputation) index = i;
  });
  return index;
}

/** The reputation-based rank. */
export function rankFromReputation(reputation: number): ReputationRank {
  return RANK_LADDER[ladderIndex(reputation)]!;
}

/** Whether gaining `gained` points from `reputation` moves a member to another rank of the ladder. */
export function rankChanges(reputation: number, gained: number): boolean {
  return ladderIndex(reputation) !== ladderIndex(reputation + gained);
}

/** The next rank up the ladder, or null at the top. */
export function nextRank(reputation: number): ReputationRank | null {
  return RANK_LADDER[ladderIndex(reputation) + 1] ?? null;
}

/** Points still needed to reach the next rank (0 at the top). */
export function pointsToNextRank(reputation: number): number {
  const next = nextRank(reputation);
  if (!next) return 0;
  return Math.max(0, next.minReputation - (Number.isFinite(reputation) ? reputation : 0));
}

/** The rank a member shows: an active, owned premium rank wins over the reputation rank. */
export function effectiveRank(user: {
  reputation: number;
  activePremiumRank?: string | null;
  ownedPremiumRanks?: readonly string[] | null;
}): Rank {
  const active = user.activePremiumRank;
  if (active && isPremiumRankName(active) && (user.ownedPremiumRanks ?? []).includes(active)) {
    return PREMIUM_RANKS.find((rank) => rank.name === active)!;
  }
  return rankFromReputation(user.reputation);
}
