import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { screen, within } from '@testing-library/react';
import { renderScreen } from '../testing';
import { PremiumRanksScreen } from './premium-ranks';

const grades = () => within(screen.getByRole('list', { name: 'VIP grades' })).getAllByRole('listitem');
const grade = (name: string) => screen.getByRole('listitem', { name });

describe('upgrades (/upgrades)', () => {
  it('lists the four VIP grades with their badge and name style', () => {
    renderScreen(<PremiumRanksScreen />, { path: '/upgrades' });
    expect(grades().map((item) => item.getAttribute('aria-label'))).toEqual([
      'Elite Hacker',
      'Cyber Ghost',
      'Script Kiddie',
      'Digital Phantom',
    ]);
    for (const [name, style] of [
      ['Elite Hacker', 'elite-hacker'],
      ['Cyber Ghost', 'cyber-ghost'],
      ['Script Kiddie', 'script-kiddie'],
      ['Digital Phantom', 'digital-phantom'],
    ] as const) {
      const item = grade(name);
      expect(within(item).getByText(name.toUpperCase())).toHaveClass('tp-badge', `rank-${style}`);
      expect(within(item).getByRole('heading', { name })).toBeInTheDocument();
      const preview = within(item).getByTestId('name-preview');
      expect(preview).toHaveTextContent('neo');
      expect(preview).toHaveClass(`rank-${style}`);
    }
  });

  it('tags the grades the member owns, and the active one', () => {
    renderScreen(<PremiumRanksScreen />, {
      path: '/upgrades',
      user: sampleCurrentUser({
        ownedPremiumRanks: ['Cyber Ghost', 'Digital Phantom'],
        activePremiumRank: 'Digital Phantom',
      }),
    });
    const owned = grades().filter((item) => within(item).queryByText('OWNED'));
    expect(owned.map((item) => item.getAttribute('aria-label'))).toEqual(['Cyber Ghost', 'Digital Phantom']);
    expect(within(grade('Digital Phantom')).getByText('ACTIVE')).toBeInTheDocument();
    expect(within(grade('Cyber Ghost')).queryByText('ACTIVE')).not.toBeInTheDocument();
    expect(
      within(grade('Cyber Ghost')).getByRole('link', { name: 'Activate on the Ranks page' }),
    ).toHaveAttribute('href', '/ranks');
    expect(within(grade('Elite Hacker')).queryByText('OWNED')).not.toBeInTheDocument();
  });

  it('tags nothing for a member who owns no grade', () => {
    renderScreen(<PremiumRanksScreen />, { path: '/upgrades' });
    expect(screen.queryByText('OWNED')).not.toBeInTheDocument();
    expect(screen.queryByText('ACTIVE')).not.toBeInTheDocument();
  });

  it('explains that an admin grants grades, with no payment, and links to Support', () => {
    renderScreen(<PremiumRanksScreen />, { path: '/upgrades' });
    const how = screen.getByRole('region', { name: 'HOW TO GET ONE' });
    expect(how).toHaveTextContent('No payment flow.');
    expect(how).toHaveTextContent('VIP grades are granted by an admin');
    expect(within(how).getByRole('link', { name: 'Support' })).toHaveAttribute('href', '/support');
    expect(within(how).getByRole('link', { name: 'CONTACT SUPPORT' })).toHaveAttribute('href', '/support');
    expect(
      within(grade('Script Kiddie')).getByRole('link', { name: 'Ask the staff for it' }),
    ).toHaveAttribute('href', '/support?subject=VIP%20grade%20request%3A%20Script%20Kiddie');
    expect(screen.queryByRole('button', { name: /buy|purchase/i })).not.toBeInTheDocument();
  });
});
