import type { RecentPastesPage, PasteCard } from '@termpaste/contracts';
import { createQueryClient } from '@termpaste/ui';
import { screen, within } from '@testing-library/react';
import { recentPastesQuery } from '../api/pastes';
import { pending, renderScreen, sampleCard, stubFetch } from '../testing';
import { HomeScreen } from './home';

const card = (id: number, overrides: Partial<PasteCard> = {}) =>
  sampleCard({ id, title: `paste ${id}`, ...overrides });

function renderHome(page?: RecentPastesPage) {
  const client = createQueryClient();
  if (page) client.setQueryData(recentPastesQuery.queryKey, { pages: [page], pageParams: [null] });
  stubFetch(pending); // never answers: the seeded page stays, or the screen stays loading
  renderScreen(<HomeScreen />, { client });
}

describe('home', () => {
  it('shows ten placeholder rows while loading', () => {
    renderHome();
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(10);
  });

  it('shows the empty state with its button', () => {
    renderHome({ pinned: [], threads: [], nextCursor: null, total: 0 });
    expect(screen.getByText('No pastes yet. Be the first to add one!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ADD FIRST PASTE' })).toHaveAttribute('href', '/thread/new');
  });

  it('lists pinned pastes apart, the columns, authors, Anonymous and the count line', () => {
    renderHome({
      pinned: [card(9, { isPinned: true, title: 'rules', isLocked: true })],
      threads: [card(2, { isFeatured: true }), card(1, { author: null })],
      nextCursor: null,
      total: 3,
    });
    const pinned = screen.getByRole('table', { name: 'Pinned Pastes' });
    expect(within(pinned).getByRole('link', { name: 'rules' })).toHaveAttribute('href', '/thread/9');
    expect(within(pinned).getByLabelText('Locked')).toBeInTheDocument();
    const recent = screen.getByRole('table', { name: 'Recent pastes' });
    for (const column of ['Title', 'Comments', 'Views', 'Created by', 'Added']) {
      expect(within(recent).getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
    expect(within(recent).getByLabelText('Featured')).toBeInTheDocument();
    expect(within(recent).getByRole('link', { name: /trinity/ })).toHaveAttribute('href', '/profile/3');
    expect(within(recent).getByText('Anonymous')).toBeInTheDocument();
    expect(within(recent).getAllByText('about 2 hours ago')).toHaveLength(2);
    expect(screen.getByText('Showing 3 of 3 total pastes')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ADD PASTE' })).toHaveAttribute('href', '/thread/new');
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
  });

  it('offers LOAD MORE while there is a next page', () => {
    renderHome({ pinned: [], threads: [card(1)], nextCursor: 'abc', total: 80 });
    expect(screen.getByRole('button', { name: 'LOAD MORE' })).toBeInTheDocument();
    expect(screen.getByText('Showing 1 of 80 total pastes')).toBeInTheDocument();
  });
});
