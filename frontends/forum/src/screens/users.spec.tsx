import type { DirectoryUser, UsersPage } from '@termpaste/contracts';
import { createQueryClient } from '@termpaste/ui';
import { screen, waitFor, within } from '@testing-library/react';
import { usersQuery } from '../api/pastes';
import { renderScreen, sampleDirectoryUser, stubFetch, urls } from '../testing';
import { UsersScreen } from './users';

const member = (id: number, username: string, overrides: Partial<DirectoryUser> = {}) =>
  sampleDirectoryUser({ id, username, ...overrides });

function renderUsers(first?: UsersPage) {
  const client = createQueryClient();
  if (first) client.setQueryData(usersQuery('').queryKey, { pages: [first], pageParams: [null] });
  return renderScreen(<UsersScreen />, { path: '/users', client }).user;
}

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Members' }))
    .getAllByRole('row')
    .slice(1);

describe('users directory (/users)', () => {
  it('lists members with rank badge, counts and join date', () => {
    renderUsers({
      users: [
        member(1, 'root', {
          reputation: 6000,
          isOwner: true,
          isAdmin: true,
          threadCount: 40,
          replyCount: 300,
        }),
        member(3, 'trinity', { activePremiumRank: 'Cyber Ghost' }),
        member(8, 'morpheus', { isAdmin: true, reputation: 12 }),
      ],
      nextCursor: null,
    });
    const table = screen.getByRole('table', { name: 'Members' });
    for (const column of ['#', 'Member', 'Rank', 'Rep', 'Pastes', 'Replies', 'Joined']) {
      expect(within(table).getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
    const rows = bodyRows();
    expect(rows).toHaveLength(3);
    const cells = within(rows[0]!).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent(/^1$/);
    expect(within(cells[1]!).getByRole('link', { name: /root/ })).toHaveAttribute('href', '/profile/1');
    expect(cells[1]).toHaveTextContent('OWNER');
    expect(cells[1]).not.toHaveTextContent('ADMIN');
    expect(cells[2]).toHaveTextContent(/^LEGEND$/);
    expect(cells[3]).toHaveTextContent(/^6000$/);
    expect(cells[4]).toHaveTextContent(/^40$/);
    expect(cells[5]).toHaveTextContent(/^300$/);
    expect(cells[6]).toHaveTextContent(/^Jan 5, 2026$/);

    const trinity = within(rows[1]!).getAllByRole('cell');
    expect(trinity[2]).toHaveTextContent(/^CYBER GHOST$/);
    expect(within(trinity[1]!).getByText('trinity')).toHaveClass('rank-cyber-ghost');
    expect(within(rows[2]!).getAllByRole('cell')[1]).toHaveTextContent('ADMIN');
    expect(within(rows[2]!).getAllByRole('cell')[2]).toHaveTextContent(/^ROOKIE$/);
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
  });

  it('fetches the first page without a query string', async () => {
    const calls = stubFetch(() => ({ body: { users: [member(2, 'neo')], nextCursor: null } }));
    renderUsers();
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(10);
    expect(await screen.findByRole('link', { name: /neo/ })).toHaveAttribute('href', '/profile/2');
    expect(urls(calls)).toEqual(['/api/users']);
  });

  it('filters by name after a pause in typing, sending ?q= once', async () => {
    const calls = stubFetch(({ url }) => ({
      body: { users: url.includes('q=') ? [member(3, 'trinity')] : [], nextCursor: null },
    }));
    const user = renderUsers({ users: [member(1, 'root'), member(3, 'trinity')], nextCursor: null });
    const box = screen.getByRole('searchbox', { name: 'Filter members by name' });
    expect(box).toHaveAttribute('maxLength', '64');
    await user.type(box, ' tri ');
    expect(urls(calls)).toEqual([]);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(urls(calls)).toEqual(['/api/users?q=tri']);
    expect(within(bodyRows()[0]!).getByRole('link', { name: /trinity/ })).toBeInTheDocument();
  });

  it('says when no member matches', async () => {
    const calls = stubFetch(() => ({ body: { users: [], nextCursor: null } }));
    const user = renderUsers({ users: [member(1, 'root')], nextCursor: null });
    await user.type(screen.getByRole('searchbox', { name: 'Filter members by name' }), 'a&b');
    expect(await screen.findByText('No members match "a&b".')).toBeInTheDocument();
    expect(urls(calls)).toEqual(['/api/users?q=a%26b']);
  });

  it('loads more members with the cursor while there is a next page', async () => {
    const calls = stubFetch(() => ({ body: { users: [member(9, 'tank')], nextCursor: null } }));
    const user = renderUsers({ users: [member(1, 'root'), member(3, 'trinity')], nextCursor: 'c2' });
    expect(screen.getByText('Showing 2 members')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'LOAD MORE' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(urls(calls)).toEqual(['/api/users?cursor=c2']);
    expect(within(bodyRows()[2]!).getAllByRole('cell')[0]).toHaveTextContent(/^3$/);
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
  });

  it('says so when there are no members', () => {
    renderUsers({ users: [], nextCursor: null });
    expect(screen.getByText('No members yet.')).toBeInTheDocument();
  });
});
