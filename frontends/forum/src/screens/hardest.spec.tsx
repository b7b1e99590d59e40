import type { PasteCard } from '@termpaste/contracts';
import { createQueryClient } from '@termpaste/ui';
import { screen, within } from '@testing-library/react';
import { featuredPastesQuery } from '../api/pastes';
import { pending, renderScreen, sampleCard, stubFetch } from '../testing';
import { HardestScreen } from './hardest';

const card = (id: number, overrides: Partial<PasteCard> = {}) =>
  sampleCard({ id, title: `featured ${id}`, viewCount: 150, replyCount: 4, isFeatured: true, ...overrides });

function renderHardest(threads?: PasteCard[]) {
  const client = createQueryClient();
  if (threads) client.setQueryData(featuredPastesQuery.queryKey, threads);
  else stubFetch(pending);
  return renderScreen(<HardestScreen />, { path: '/hardest', client }).user;
}

describe('hardest posts (/hardest)', () => {
  it('lists the featured pastes with their columns and count', () => {
    renderHardest([card(1), card(2, { author: null, replyCount: 9, viewCount: 12 })]);
    const region = screen.getByRole('region', { name: 'HARDEST POSTS' });
    expect(within(region).getByText('2 featured')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Featured pastes' });
    for (const column of ['Title', 'Replies', 'Views', 'Creator', 'Added']) {
      expect(within(table).getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: 'featured 1' })).toHaveAttribute('href', '/thread/1');
    expect(within(rows[1]!).getByRole('link', { name: 'featured 2' })).toHaveAttribute('href', '/thread/2');
    expect(within(rows[0]!).getByRole('link', { name: /trinity/ })).toHaveAttribute('href', '/profile/3');
    const cells = within(rows[0]!).getAllByRole('cell');
    expect(cells).toHaveLength(5);
    expect(cells[0]).toHaveTextContent('featured 1');
    expect(cells[1]).toHaveTextContent(/^4$/);
    expect(cells[2]).toHaveTextContent(/^150$/);
    expect(cells[3]).toHaveTextContent('trinity');
    expect(cells[4]).toHaveTextContent(/^about 2 hours ago$/);
    expect(within(rows[1]!).getByText('Anonymous')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('img', { name: 'Featured' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('img', { name: 'Hot' })).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('img', { name: 'Hot' })).not.toBeInTheDocument();
  });

  it('opens a paste when its row is clicked', async () => {
    const user = renderHardest([card(1), card(7)]);
    const rows = screen.getAllByRole('row').slice(1);
    await user.click(within(rows[1]!).getAllByRole('cell')[2]!);
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent('/thread/7');
  });

  it('says 1 featured with one', () => {
    renderHardest([card(1)]);
    expect(screen.getByText('1 featured')).toBeInTheDocument();
  });

  it('shows the empty message', () => {
    renderHardest([]);
    expect(screen.getByText('No featured posts yet. Check back soon!')).toBeInTheDocument();
    expect(screen.getByText('0 featured')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows placeholder rows while loading', () => {
    renderHardest();
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(10);
    expect(screen.queryByText(/featured$/)).not.toBeInTheDocument();
  });
});
