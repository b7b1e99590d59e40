import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { API, SIGNED_OUT_HEADER, type CurrentUser } from '@termpaste/contracts';
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

describe('currentUserQuery', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  /** The query's own fetch, against a stub answering `status` (and `body`); the request it sent. */
  async function ask(status: number, body = ''): Promise<{ result: unknown; init: RequestInit | undefined }> {
    let init: RequestInit | undefined;
    globalThis.fetch = (async (_url: string, given?: RequestInit) => {
      init = given;
      return {
        ok: status >= 200 && status < 300,
        status,
        statusText: '',
        text: async () => body,
        json: async () => JSON.parse(body),
      } as Response;
    }) as typeof fetch;
    const queryFn = currentUserQuery.queryFn as (context: {
      queryKey: readonly unknown[];
      signal?: AbortSignal;
    }) => Promise<unknown>;
    return { result: await queryFn({ queryKey: currentUserQuery.queryKey }), init };
  }

  it('asks with the signed-out header, and reads a visitor 204 as null (no failed request logged)', async () => {
    const { result, init } = await ask(204);
    expect(result).toBeNull();
    expect((init?.headers as Record<string, string>)[SIGNED_OUT_HEADER]).toBe('204');
    expect(init?.credentials).toBe('include');
  });

  it('reads a 401 as signed out too, and the member from a 200', async () => {
    expect((await ask(401, 'Unauthorized')).result).toBeNull();
    expect((await ask(200, JSON.stringify(member))).result).toEqual(member);
  });

  it('throws on another failure', async () => {
    await expect(ask(500, 'down')).rejects.toThrow('500: down');
  });
});
