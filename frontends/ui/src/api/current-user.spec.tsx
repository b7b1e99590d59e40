import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { API, type CurrentUser } from '@termpaste/contracts';
import { UiProvider } from '../components/ui-provider.js';
import { currentUserQuery, useCurrentUser } from './current-user.js';

const member: CurrentUser = {
  id: 1,
  username: 'zerocool',
  email: 'zero@cool.net',
  firstName: null,
  lastName: null,
  avatarUrl: null,
  profileImageUrl: null,
  bio: null,
  reputation: 12,
  activePremiumRank: null,
  ownedPremiumRanks: [],
  threadCount: 1,
  replyCount: 3,
  createdAt: '2025-01-01T00:00:00.000Z',
  isAdmin: false,
  isOwner: false,
  isBanned: false,
  emailVerified: true,
};

function Probe() {
  const { user, isLoading, isAuthenticated } = useCurrentUser();
  return <output>{JSON.stringify({ user: user?.username ?? null, isLoading, isAuthenticated })}</output>;
}

/** Seeds the cache so no request is made (jsdom has no fetch; the client itself is tested on a real server). */
function renderWith(seed: (client: QueryClient) => void) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  seed(client);
  render(
    <UiProvider queryClient={client}>
      <Probe />
    </UiProvider>,
  );
}

describe('useCurrentUser', () => {
  it('is authenticated with a user', () => {
    renderWith((client) => client.setQueryData(currentUserQuery.queryKey, member));
    expect(JSON.parse(screen.getByRole('status').textContent!)).toEqual({
      user: 'zerocool',
      isLoading: false,
      isAuthenticated: true,
    });
  });

  it('is signed out when the call answered 401 (null)', () => {
    renderWith((client) => client.setQueryData(currentUserQuery.queryKey, null));
    expect(JSON.parse(screen.getByRole('status').textContent!)).toEqual({
      user: null,
      isLoading: false,
      isAuthenticated: false,
    });
  });

  it('is loading until the call answers', () => {
    renderWith((client) =>
      client.setQueryDefaults(currentUserQuery.queryKey, { queryFn: () => new Promise<never>(() => {}) }),
    );
    expect(JSON.parse(screen.getByRole('status').textContent!)).toEqual({
      user: null,
      isLoading: true,
      isAuthenticated: false,
    });
  });

  it('uses the current-user path as its key', () => {
    expect(currentUserQuery.queryKey).toEqual([API.currentUser]);
  });
});
