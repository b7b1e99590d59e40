import { API, type CurrentUser } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import {
  deferred,
  errorBody,
  expectLoginRedirect,
  expectToast,
  reads,
  renderScreen,
  stubApi,
  writes,
  type FetchHandler,
} from '../testing';
import { RanksScreen } from './ranks';

/** neo with 42 points (a Rookie, 8 short of Member), owning two grades, Cyber Ghost active. */
const vip = (overrides: Partial<CurrentUser> = {}) =>
  sampleCurrentUser({
    ownedPremiumRanks: ['Cyber Ghost', 'Elite Hacker'],
    activePremiumRank: 'Cyber Ghost',
    ...overrides,
  });

/** GET /api/auth/user answers `state.user`; a select-rank POST makes it the active rank by default. */
function server(state: { user: CurrentUser }, onWrite?: FetchHandler) {
  return stubApi(
    (url) => (url === API.currentUser ? state.user : undefined),
    onWrite ??
      ((call) => {
        state.user = {
          ...state.user,
          activePremiumRank: (call.body as { rankName: string | null }).rankName,
        };
        return { body: state.user };
      }),
  );
}

function renderRanks(user: CurrentUser | null = vip()) {
  return renderScreen(<RanksScreen />, { path: '/ranks', user });
}

const card = (title: string) => screen.getByRole('region', { name: title });
const reputationRow = () => screen.getByRole('group', { name: 'Reputation rank' });
const grade = (name: string) => screen.getByRole('listitem', { name });

describe('ranks (/ranks)', () => {
  it('asks a visitor to log in', () => {
    renderRanks(null);
    expect(screen.getByText('You must be logged in to manage your ranks.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use This' })).not.toBeInTheDocument();
  });

  it('shows the reputation rank as active, with its progress, when no grade is owned', () => {
    renderRanks(sampleCurrentUser());
    expect(card('ACTIVE RANK')).toHaveTextContent(
      'No VIP grade is active: your reputation rank ROOKIE is shown.',
    );

    const row = reputationRow();
    expect(within(row).getByText('ROOKIE')).toHaveClass('rank-rookie');
    expect(within(row).getByText('Rookie')).toBeInTheDocument();
    expect(row).toHaveTextContent('42 reputation');
    expect(within(row).getByText('Active')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Use This' })).not.toBeInTheDocument();
    // 42 of the 10 to 50 stretch from Rookie to Member.
    expect(within(row).getByRole('progressbar', { name: 'Progress to the next rank' })).toHaveAttribute(
      'aria-valuenow',
      '80',
    );
    expect(row).toHaveTextContent('8 points needed to reach Member');

    const none = within(card('VIP GRADES')).getByText(/You do not own any VIP grades yet/);
    expect(none).toHaveTextContent('Visit the Upgrades page');
    expect(within(none).getByRole('link', { name: 'Upgrades' })).toHaveAttribute('href', '/upgrades');
  });

  it('is one page (h1 RANKS) of four parts (h2), for a screen reader', () => {
    renderRanks(sampleCurrentUser());
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^RANKS$/);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'ACTIVE RANK',
      'REPUTATION RANK',
      'VIP GRADES',
      'REPUTATION LADDER',
    ]);
  });

  it('says when the top of the ladder is reached', () => {
    renderRanks(sampleCurrentUser({ reputation: 7000 }));
    expect(reputationRow()).toHaveTextContent('Legend');
    expect(reputationRow()).toHaveTextContent('Top rank reached: Legend.');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  });

  it('shows the active grade and each owned grade with Use This or Active', () => {
    renderRanks();
    const active = card('ACTIVE RANK');
    expect(within(active).getByText('CYBER GHOST')).toHaveClass('rank-cyber-ghost');
    expect(within(active).getByTestId('name-preview')).toHaveClass('rank-cyber-ghost');
    expect(active).toHaveTextContent('Your VIP grade Cyber Ghost is shown');

    expect(within(reputationRow()).getByRole('button', { name: 'Use This' })).toBeEnabled();
    expect(within(reputationRow()).queryByText('Active')).not.toBeInTheDocument();

    const grades = within(screen.getByRole('list', { name: 'Owned VIP grades' })).getAllByRole('listitem');
    expect(grades.map((item) => item.getAttribute('aria-label'))).toEqual(['Elite Hacker', 'Cyber Ghost']);
    expect(within(grade('Cyber Ghost')).getByText('Active')).toBeInTheDocument();
    expect(within(grade('Cyber Ghost')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(grade('Elite Hacker')).getByRole('button', { name: 'Use This' })).toBeEnabled();
    expect(within(grade('Elite Hacker')).getByText('ELITE HACKER')).toHaveClass('rank-elite-hacker');
    const preview = within(grade('Elite Hacker')).getByTestId('name-preview');
    expect(preview).toHaveTextContent('neo');
    expect(preview).toHaveClass('rank-elite-hacker');
    expect(screen.queryByText(/You do not own any VIP grades yet/)).not.toBeInTheDocument();
  });

  it('ignores an active grade the member does not own', () => {
    renderRanks(vip({ ownedPremiumRanks: ['Elite Hacker'], activePremiumRank: 'Digital Phantom' }));
    expect(card('ACTIVE RANK')).toHaveTextContent('No VIP grade is active');
    expect(within(reputationRow()).getByText('Active')).toBeInTheDocument();
    expect(within(grade('Elite Hacker')).getByRole('button', { name: 'Use This' })).toBeInTheDocument();
  });

  it('selects an owned grade, toasts and refetches the member', async () => {
    const state = { user: vip() };
    const answer = deferred();
    const calls = server(state, () => {
      state.user = { ...state.user, activePremiumRank: 'Elite Hacker' };
      return answer.promise;
    });
    const { user } = renderRanks(state.user);

    await user.click(within(grade('Elite Hacker')).getByRole('button', { name: 'Use This' }));
    await waitFor(() =>
      expect(within(reputationRow()).getByRole('button', { name: 'Use This' })).toBeDisabled(),
    );
    expect(writes(calls)).toEqual([
      { method: 'POST', url: '/api/user/select-rank', body: { rankName: 'Elite Hacker' } },
    ]);

    await act(async () => answer.resolve({ body: state.user }));
    await expectToast('Rank Updated', 'Your active rank has been updated');
    await waitFor(() => expect(reads(calls, API.currentUser)).toHaveLength(1));
    expect(within(grade('Elite Hacker')).getByText('Active')).toBeInTheDocument();
    expect(within(grade('Cyber Ghost')).getByRole('button', { name: 'Use This' })).toBeEnabled();
    expect(within(card('ACTIVE RANK')).getByText('ELITE HACKER')).toBeInTheDocument();
  });

  it('goes back to the reputation rank with null', async () => {
    const state = { user: vip() };
    const calls = server(state);
    const { user } = renderRanks(state.user);

    await user.click(within(reputationRow()).getByRole('button', { name: 'Use This' }));
    await expectToast('Rank Updated', 'Your active rank has been updated');
    expect(writes(calls)).toEqual([
      { method: 'POST', url: '/api/user/select-rank', body: { rankName: null } },
    ]);
    await waitFor(() => expect(within(reputationRow()).getByText('Active')).toBeInTheDocument());
    expect(card('ACTIVE RANK')).toHaveTextContent('No VIP grade is active');
    expect(within(grade('Cyber Ghost')).getByRole('button', { name: 'Use This' })).toBeInTheDocument();
  });

  it("toasts the server's refusal under Error", async () => {
    server({ user: vip() }, () => ({ status: 400, body: errorBody(400, 'You do not own this rank') }));
    const { user } = renderRanks();
    await user.click(within(grade('Elite Hacker')).getByRole('button', { name: 'Use This' }));
    await expectToast('Error', 'You do not own this rank');
    expect(document.querySelector('.tp-toast')).toHaveClass('tp-toast--destructive');
    expect(within(grade('Cyber Ghost')).getByText('Active')).toBeInTheDocument();
    expect(within(grade('Elite Hacker')).getByRole('button', { name: 'Use This' })).toBeEnabled();
  });

  it('says Failed to update rank when the server gives no message', async () => {
    server({ user: vip() }, () => ({ status: 500, body: '' }));
    const { user } = renderRanks();
    await user.click(within(grade('Elite Hacker')).getByRole('button', { name: 'Use This' }));
    await expectToast('Error', 'Failed to update rank');
  });

  it('sends the member to sign in again when the session is gone', async () => {
    server({ user: vip() }, () => ({ status: 401, body: errorBody(401, 'Unauthorized') }));
    const { user } = renderRanks();
    await user.click(within(reputationRow()).getByRole('button', { name: 'Use This' }));
    await expectLoginRedirect();
  });

  it('lists the whole reputation ladder with its thresholds and marks where the member is', () => {
    renderRanks(sampleCurrentUser({ reputation: 120 }));
    const table = screen.getByRole('table', { name: 'Reputation ladder' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(1, 3)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Newbie', 'below 10'],
      ['Rookie', '10+'],
      ['Member', '50+'],
      ['Regular', '100+'],
      ['Advanced', '250+'],
      ['Veteran', '500+'],
      ['Elite', '1000+'],
      ['Master', '2500+'],
      ['Legend', '5000+'],
    ]);
    expect(within(rows[3]!).getByText('USER')).toHaveClass('rank-regular');
    expect(rows[3]).toHaveAttribute('aria-current', 'true');
    expect(rows[3]).toHaveTextContent('YOU ARE HERE');
    expect(rows[2]).toHaveTextContent('reached');
    expect(rows[4]).toHaveTextContent('130 to go');
    expect(rows.filter((row) => row.hasAttribute('aria-current'))).toHaveLength(1);
  });
});
