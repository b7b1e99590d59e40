import { authorRank, PREMIUM_RANKS, rankFromReputation } from '@termpaste/contracts';
import { render, screen } from '@testing-library/react';
import { RankBadge, UserName } from './rank.js';

const rankClasses = (element: Element) => Array.from(element.classList).filter((c) => c.startsWith('rank-'));

describe('UserName', () => {
  it('is styled rank-cyber-ghost with the active premium grade Cyber Ghost', () => {
    render(<UserName user={{ username: 'ghost', reputation: 3, activePremiumRank: 'Cyber Ghost' }} />);
    const name = screen.getByText('ghost');
    expect(name).toHaveClass('tp-username', 'rank-cyber-ghost');
    expect(rankClasses(name)).toEqual(['rank-cyber-ghost']);
  });

  it('styles every premium grade by its lower-cased, hyphenated name', () => {
    render(
      <>
        <UserName user={{ username: 'a', reputation: 0, activePremiumRank: 'Elite Hacker' }} />
        <UserName user={{ username: 'b', reputation: 0, activePremiumRank: 'Digital Phantom' }} />
      </>,
    );
    expect(screen.getByText('a')).toHaveClass('rank-elite-hacker');
    expect(screen.getByText('b')).toHaveClass('rank-digital-phantom');
  });

  it('has no rank class without a premium grade, whatever the reputation', () => {
    render(
      <>
        <UserName user={{ username: 'newbie', reputation: 0, activePremiumRank: null }} />
        <UserName user={{ username: 'legend', reputation: 9000, activePremiumRank: null }} />
        <UserName user={{ username: 'bogus', reputation: 5, activePremiumRank: 'Not A Grade' }} />
      </>,
    );
    for (const name of ['newbie', 'legend', 'bogus']) {
      expect(rankClasses(screen.getByText(name))).toEqual([]);
    }
  });

  it('keeps a caller class', () => {
    render(<UserName user={{ username: 'x', reputation: 0, activePremiumRank: null }} className="big" />);
    expect(screen.getByText('x')).toHaveClass('tp-username', 'big');
  });
});

describe('RankBadge', () => {
  it('shows a reputation rank badge with its style and name', () => {
    render(<RankBadge rank={rankFromReputation(120)} />);
    const badge = screen.getByText('USER');
    expect(badge).toHaveClass('tp-badge', 'rank-regular');
    expect(badge).toHaveAttribute('title', 'Regular');
  });

  it('shows a premium badge', () => {
    render(
      <RankBadge rank={authorRank({ reputation: 1, activePremiumRank: 'Cyber Ghost' })} className="x" />,
    );
    const badge = screen.getByText('CYBER GHOST');
    expect(badge).toHaveClass('rank-cyber-ghost', 'x');
    expect(badge).toHaveAttribute('title', 'Cyber Ghost');
  });

  it.each(PREMIUM_RANKS.map((rank) => [rank.name, rank.badge] as const))('%s reads %s', (name, badge) => {
    render(<RankBadge rank={PREMIUM_RANKS.find((rank) => rank.name === name)!} />);
    expect(screen.getByText(badge)).toBeInTheDocument();
  });
});
