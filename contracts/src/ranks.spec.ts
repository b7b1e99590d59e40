import {
  effectiveRank,
  isPremiumRankName,
  nextRank,
  pointsToNextRank,
  premiumRankStyle,
  PREMIUM_RANK_NAMES,
  rankChanges,
  rankFromReputation,
} from './ranks.js';

describe('rankFromReputation (sidebar/profile reading)', () => {
  it.each([
    [-20, 'Newbie'],
    [0, 'Newbie'],
    [9, 'Newbie'],
    [10, 'Rookie'],
    [49, 'Rookie'],
    [50, 'Member'],
    [99, 'Member'],
    [100, 'Regular'],
    [249, 'Regular'],
    [250, 'Advanced'],
    [500, 'Veteran'],
    [999, 'Veteran'],
    [1000, 'Elite'],
    [2500, 'Master'],
    [4999, 'Master'],
    [5000, 'Legend'],
    [1_000_000, 'Legend'],
  ])('reputation %i is %s', (reputation, name) => {
    expect(rankFromReputation(reputation).name).toBe(name);
  });

  it('shows the badge USER for Regular', () => {
    expect(rankFromReputation(100).badge).toBe('USER');
  });

  it('treats a non-finite reputation as 0', () => {
    expect(rankFromReputation(Number.NaN).name).toBe('Newbie');
  });

  it('reputation ranks are not premium', () => {
    expect(rankFromReputation(5000).isPremium).toBe(false);
  });
});

describe('nextRank and pointsToNextRank', () => {
  it('counts the points to the next rank', () => {
    expect(nextRank(0)?.name).toBe('Rookie');
    expect(pointsToNextRank(0)).toBe(10);
    expect(pointsToNextRank(42)).toBe(8);
    expect(pointsToNextRank(100)).toBe(150);
    expect(pointsToNextRank(-5)).toBe(15);
  });

  it('has nothing above Legend', () => {
    expect(nextRank(5000)).toBeNull();
    expect(pointsToNextRank(9000)).toBe(0);
  });
});

describe('premium ranks', () => {
  it('lists the four VIP grades', () => {
    expect(PREMIUM_RANK_NAMES).toEqual(['Elite Hacker', 'Cyber Ghost', 'Script Kiddie', 'Digital Phantom']);
  });

  it('styles by the lower-cased name with spaces turned to hyphens', () => {
    expect(premiumRankStyle('Elite Hacker')).toBe('elite-hacker');
    expect(premiumRankStyle('Digital  Phantom')).toBe('digital-phantom');
  });

  it('knows its names', () => {
    expect(isPremiumRankName('Cyber Ghost')).toBe(true);
    expect(isPremiumRankName('cyber ghost')).toBe(false);
    expect(isPremiumRankName(null)).toBe(false);
  });
});

describe('effectiveRank', () => {
  it('is the reputation rank without an active premium rank', () => {
    expect(effectiveRank({ reputation: 120, activePremiumRank: null, ownedPremiumRanks: [] }).name).toBe(
      'Regular',
    );
  });

  it('lets an owned, active premium rank win', () => {
    const rank = effectiveRank({
      reputation: 5000,
      activePremiumRank: 'Cyber Ghost',
      ownedPremiumRanks: ['Cyber Ghost'],
    });
    expect(rank).toMatchObject({ name: 'Cyber Ghost', isPremium: true, style: 'cyber-ghost' });
  });

  it('ignores an active rank the member does not own', () => {
    expect(
      effectiveRank({ reputation: 0, activePremiumRank: 'Cyber Ghost', ownedPremiumRanks: [] }).name,
    ).toBe('Newbie');
  });

  it('ignores an unknown active rank', () => {
    expect(effectiveRank({ reputation: 10, activePremiumRank: 'God', ownedPremiumRanks: ['God'] }).name).toBe(
      'Rookie',
    );
  });
});

describe('rankChanges', () => {
  it.each([
    [0, 5, false],
    [5, 5, true],
    [9, 1, true],
    [10, 1, false],
    [98, 2, true],
    [97, 2, false],
    [4999, 1, true],
    [5000, 5, false],
  ])('from %i gaining %i: %s', (reputation, gained, changes) => {
    expect(rankChanges(reputation, gained)).toBe(changes);
  });
});
