import { type RecentThreadsPage, type ThreadCard } from '@termpaste/contracts';
import { createQueryClient, UiProvider } from '@termpaste/ui';
import type { QueryClient } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { recentThreadsQuery } from '../api/forum';
import { HomeScreen } from './home';

function card(id: number, overrides: Partial<ThreadCard> = {}): ThreadCard {
  return {
    id,
    title: `paste ${id}`,
    createdAt: new Date(Date.now() - 2 * 3600_000).toISOString(),
    author: {
      id: 3,
      username: 'trinity',
      avatarUrl: null,
      profileImageUrl: null,
      firstName: null,
      lastName: null,
      reputation: 12,
      activePremiumRank: null,
    },
    viewCount: 7,
    voteScore: 0,
    replyCount: 2,
    isPinned: false,
    isLocked: false,
    isFeatured: false,
    lastReplyAt: null,
    lastReplyAuthor: null,
    ...overrides,
  };
}

function renderHome(page?: RecentThreadsPage): QueryClient {
  const client = createQueryClient();
  if (page) client.setQueryData(recentThreadsQuery.queryKey, { pages: [page], pageParams: [null] });
  else globalThis.fetch = () => new Promise(() => undefined); // stays loading
  render(
    <UiProvider queryClient={client}>
      <MemoryRouter>
        <HomeScreen />
      </MemoryRouter>
    </UiProvider>,
  );
  return client;
}

describe('home (SPEC §2)', () => {
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
