import type { ReputationEntry, ReputationLedgerPage, UserProfile } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, preloadMarkdown } from '@termpaste/ui';
import { screen, within } from '@testing-library/react';
import { profileQuery } from '../api/pastes';
import {
  minutesAgo,
  renderScreen,
  sampleProfile,
  stubApi,
  stubFetch,
  type RenderScreenOptions,
} from '../testing';
import { ProfileScreen } from './profile';

function renderProfile({
  profile = sampleProfile() as UserProfile | null,
  ...options
}: RenderScreenOptions & { profile?: UserProfile | null } = {}) {
  const client = createQueryClient();
  if (profile) client.setQueryData(profileQuery(String(profile.id)).queryKey, profile);
  renderScreen(<ProfileScreen />, {
    path: '/profile/3',
    route: ['/profile', '/profile/:id', '/user/:id'],
    client,
    ...options,
  });
}

/** The value shown under a stat label. */
const stat = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

// The Markdown renderer is fetched on demand: once per file, so a findBy does not wait for jest to load it.
beforeAll(() => preloadMarkdown());

describe('user profile', () => {
  it('shows the avatar, username, full name, bio as Markdown and the rank badge', async () => {
    renderProfile();
    const card = screen.getByRole('region', { name: 'PROFILE' });
    expect(within(card).getByRole('img', { name: 'Tri Nity' })).toHaveAttribute(
      'src',
      'https://cdn.test/trinity.png',
    );
    const heading = within(card).getByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent('trinity');
    expect(within(heading).getByText('ROOKIE')).toHaveClass('rank-rookie');
    expect(card).toHaveTextContent('Tri Nity');
    expect((await within(card).findByText('hack')).tagName).toBe('EM');
    expect(within(card).getByRole('link', { name: 'my site' })).toHaveAttribute(
      'href',
      'https://trinity.example',
    );
    expect(within(heading).queryByText('ADMIN')).not.toBeInTheDocument();
  });

  it('shows Rep, Threads, Replies and Joined', () => {
    renderProfile();
    expect(stat('Rep')).toHaveTextContent(/^42$/);
    expect(stat('Threads')).toHaveTextContent(/^3$/);
    expect(stat('Replies')).toHaveTextContent(/^17$/);
    expect(stat('Joined')).toHaveTextContent(/^Jan 5, 2026$/);
  });

  it('shows the points needed to reach the next rank', () => {
    renderProfile();
    const status = screen.getByRole('region', { name: 'RANK STATUS' });
    expect(status).toHaveTextContent('8 points needed to reach Member');
    const bar = within(status).getByRole('progressbar', { name: 'Progress to the next rank' });
    // Rookie starts at 10, Member at 50: 42 is 80% of the way.
    expect(bar).toHaveAttribute('aria-valuenow', '80');
  });

  it('says the top rank is reached at Legend', () => {
    renderProfile({ profile: sampleProfile({ reputation: 6000 }) });
    expect(screen.getByRole('region', { name: 'RANK STATUS' })).toHaveTextContent(
      'Top rank reached: Legend.',
    );
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  });

  it('shows an owned active premium grade as the badge and styles the name', () => {
    renderProfile({
      profile: sampleProfile({ activePremiumRank: 'Cyber Ghost', ownedPremiumRanks: ['Cyber Ghost'] }),
    });
    const heading = screen.getByRole('heading', { level: 1 });
    expect(within(heading).getByText('CYBER GHOST')).toBeInTheDocument();
    expect(within(heading).getByText('trinity')).toHaveClass('rank-cyber-ghost');
  });

  it('tags admins, owners and banned members', () => {
    renderProfile({ profile: sampleProfile({ isAdmin: true, isBanned: true }) });
    const heading = screen.getByRole('heading', { level: 1 });
    expect(within(heading).getByText('ADMIN')).toBeInTheDocument();
    expect(within(heading).getByText('BANNED')).toBeInTheDocument();
    expect(within(heading).queryByText('OWNER')).not.toBeInTheDocument();
  });

  it('lists the recent pastes as cards', () => {
    renderProfile();
    const list = screen.getByRole('list', { name: 'Recent pastes' });
    expect(within(list).getAllByRole('article')).toHaveLength(2);
    expect(within(list).getByRole('link', { name: 'second paste' })).toHaveAttribute('href', '/thread/12');
  });

  it("says 'No threads posted yet' and 'No bio yet.' for an empty profile", () => {
    renderProfile({ profile: sampleProfile({ recentThreads: [], bio: '  ', avatarUrl: null }) });
    expect(screen.getByText('No threads posted yet')).toBeInTheDocument();
    expect(screen.getByText('No bio yet.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Recent pastes' })).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Tri Nity' })).toHaveTextContent('TN');
  });

  it('reads /user/{id} too', () => {
    renderProfile({ path: '/user/3' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('trinity');
  });

  it("shows 'User not found [404]' when the API answers 404", async () => {
    const calls = stubFetch(() => ({ status: 404, body: { statusCode: 404, message: 'User not found' } }));
    renderProfile({ path: '/profile/404', profile: null });
    expect(await screen.findByText('User not found [404]')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(calls).toEqual([{ method: 'GET', url: '/api/users/404' }]);
  });

  it("shows 'User not found [404]' for an id that is not a number, without a call", () => {
    const calls = stubFetch(() => ({ body: sampleProfile() }));
    renderProfile({ path: '/profile/neo', profile: null });
    expect(screen.getByText('User not found [404]')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows the signed-in member at /profile without an id, with their reputation ledger', async () => {
    const calls = stubApi((url) =>
      url === '/api/users/7' ? sampleProfile({ id: 7, username: 'neo', recentThreads: [] }) : ledgerPage(),
    );
    renderProfile({ path: '/profile', profile: null, user: sampleCurrentUser({ id: 7 }) });
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('neo');
    expect(await screen.findByRole('table', { name: 'Reputation ledger' })).toBeInTheDocument();
    expect(calls).toEqual([
      { method: 'GET', url: '/api/users/7' },
      { method: 'GET', url: '/api/users/7/reputation' },
    ]);
  });

  it("offers a SEND MESSAGE link on another member's profile, to compose to them", () => {
    renderProfile({ user: sampleCurrentUser({ id: 7 }) });
    expect(screen.getByRole('link', { name: 'SEND MESSAGE' })).toHaveAttribute(
      'href',
      `/messages?to=${sampleProfile().username}`,
    );
  });

  it('offers no SEND MESSAGE on your own profile', async () => {
    stubFetch(() => ({ body: sampleProfile({ id: 7, username: 'neo', recentThreads: [] }) }));
    renderProfile({ path: '/profile', profile: null, user: sampleCurrentUser({ id: 7 }) });
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('neo');
    expect(screen.queryByRole('link', { name: 'SEND MESSAGE' })).not.toBeInTheDocument();
  });

  it('says it could not load on another error', async () => {
    stubFetch(() => ({ status: 500, body: 'boom' }));
    renderProfile({ path: '/profile/3', profile: null });
    expect(
      await screen.findByText('Could not load this profile. Try again in a moment.'),
    ).toBeInTheDocument();
  });
});

/** A ledger row: a paste's +5 unless told. */
function entry(id: number, overrides: Partial<ReputationEntry> = {}): ReputationEntry {
  return {
    id,
    points: 5,
    reason: 'paste',
    capped: false,
    createdAt: minutesAgo(id),
    threadId: 12,
    threadTitle: 'second paste',
    replyId: null,
    ...overrides,
  };
}

function ledgerPage(overrides: Partial<ReputationLedgerPage> = {}): ReputationLedgerPage {
  return {
    total: 42,
    today: {
      paste: { earned: 10, cap: 50 },
      reply: { earned: 40, cap: 40 },
      chat: { earned: 1, cap: 20 },
      vote: { earned: 0, cap: 50 },
    },
    entries: [
      entry(1, { reason: 'vote', points: -1, threadId: 12, replyId: 30 }),
      entry(2, { reason: 'reply', points: 0, capped: true, replyId: 30 }),
      entry(3),
      entry(4, { reason: 'chat', points: 1, threadId: null, threadTitle: null }),
      entry(5, { reason: 'vote_undone', points: -1, threadId: null, threadTitle: null }),
      entry(6, { reason: 'opening', points: 38, threadId: null, threadTitle: null }),
    ],
    nextCursor: null,
    ...overrides,
  };
}

describe('reputation ledger on the profile', () => {
  /** The ledger's rows as text, cell by cell (the time column left out). */
  const rows = (table: HTMLElement) =>
    within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(1)
          .map((cell) => cell.textContent),
      );

  it('shows your own: reason, signed points, the source linked; what today earned against the caps', async () => {
    const calls = stubApi(() => ledgerPage());
    renderProfile({ profile: sampleProfile({ id: 7 }), path: '/profile/7' });
    const card = screen.getByRole('region', { name: 'REPUTATION LEDGER' });
    await within(card).findByText('opening balance');
    const table = within(card).getByRole('table', { name: 'Reputation ledger' });
    expect(rows(table)).toEqual([
      ['vote received', '-1', 'second paste'],
      ['reply (daily cap reached)', '+0', 'second paste'],
      ['paste', '+5', 'second paste'],
      ['chat message', '+1', 'global chat'],
      ['vote withdrawn', '-1', 'deleted'],
      ['opening balance', '+38', 'before the ledger'],
    ]);
    const links = within(table).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/thread/12#reply-30',
      '/thread/12#reply-30',
      '/thread/12',
      '/chat',
    ]);
    expect(within(table).getByText('+5')).toHaveClass('forum-ledger__points--gain');
    for (const cell of within(table).getAllByText('-1'))
      expect(cell).toHaveClass('forum-ledger__points--loss');
    expect(within(table).getByText('+0')).not.toHaveClass('forum-ledger__points--gain');
    expect(card).toHaveTextContent(
      'Today (UTC): pastes 10/50 · replies 40/40 · chat 1/20 · votes received 0/50',
    );
    expect(within(card).queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
    expect(calls).toEqual([{ method: 'GET', url: '/api/users/7/reputation' }]);
  });

  it("is not shown on another member's profile, nor asked for", () => {
    const calls = stubApi(() => ledgerPage());
    renderProfile(); // trinity (3), seen by neo (7)
    expect(screen.queryByRole('region', { name: 'REPUTATION LEDGER' })).not.toBeInTheDocument();
    // Only the member's flags, for FLAG, and whether they follow them, for FOLLOW.
    expect(
      calls.filter((call) => call.url !== '/api/flags/mine' && call.url !== '/api/users/3/follow'),
    ).toHaveLength(0);
  });

  it("is shown to an admin on any member's profile", async () => {
    const calls = stubApi(() => ledgerPage());
    renderProfile({ user: sampleCurrentUser({ id: 7, isAdmin: true }) });
    expect(await screen.findByRole('table', { name: 'Reputation ledger' })).toBeInTheDocument();
    expect(
      calls.filter((call) => call.url !== '/api/flags/mine' && call.url !== '/api/users/3/follow'),
    ).toEqual([{ method: 'GET', url: '/api/users/3/reputation' }]);
  });

  it('loads older rows with LOAD MORE, by cursor', async () => {
    const calls = stubApi((url) =>
      url.endsWith('?cursor=next%3D')
        ? ledgerPage({ entries: [entry(20, { threadTitle: 'old paste', threadId: 2 })], nextCursor: null })
        : ledgerPage({ entries: [entry(1)], nextCursor: 'next=' }),
    );
    const { user } = renderScreen(<ProfileScreen />, {
      path: '/profile/7',
      route: ['/profile/:id'],
      client: withProfile(sampleProfile({ id: 7 })),
    });
    const card = screen.getByRole('region', { name: 'REPUTATION LEDGER' });
    await user.click(await within(card).findByRole('button', { name: 'LOAD MORE' }));
    expect(await within(card).findByRole('link', { name: 'old paste' })).toHaveAttribute('href', '/thread/2');
    expect(within(card).getAllByRole('row')).toHaveLength(3);
    expect(within(card).queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
    // (FOLLOW asks whether the admin follows them.)
    expect(calls.map((call) => call.url).filter((url) => url !== '/api/users/7/follow')).toEqual([
      '/api/users/7/reputation',
      '/api/users/7/reputation?cursor=next%3D',
    ]);
  });

  it("says 'No reputation earned yet.' for an empty ledger", async () => {
    stubApi(() => ledgerPage({ total: 0, entries: [] }));
    renderProfile({ profile: sampleProfile({ id: 7, reputation: 0 }), path: '/profile/7' });
    expect(await screen.findByText('No reputation earned yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Reputation ledger' })).not.toBeInTheDocument();
  });
});

function withProfile(profile: UserProfile) {
  const client = createQueryClient();
  client.setQueryData(profileQuery(String(profile.id)).queryKey, profile);
  return client;
}
