import { API, type AdminUser, type CurrentUser } from '@termpaste/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { AdminScreen } from '../screens/admin';
import {
  actionLabels,
  adminApi,
  adminViewer,
  deferred,
  errorBody,
  expectToast,
  morpheusRow,
  neoRow,
  ownerViewer,
  reads,
  renderScreen,
  rootRow,
  stubFetch,
  tankRow,
  trinityRow,
  urls,
  userRow,
  userRows,
  writes,
  type AdminState,
  type FetchHandler,
} from '../testing';

function renderAdmin(viewer: CurrentUser, state: AdminState, onWrite?: FetchHandler) {
  const calls = adminApi(state, onWrite);
  const { user, client } = renderScreen(<AdminScreen />, { path: '/admin', user: viewer });
  return { calls, user, client };
}

const everyone = (): AdminUser[] => [rootRow(), morpheusRow(), trinityRow(), tankRow(), neoRow()];
const dialogClosed = () => waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

describe('USERS tab', () => {
  it('lists each user: name with [OWNER] or [ADMIN], e-mail, status, rank, joined', async () => {
    renderAdmin(adminViewer(), { users: everyone() });
    await screen.findByRole('row', { name: 'root' });
    const table = screen.getByRole('table', { name: 'Users' });
    for (const column of ['User', 'Email', 'Status', 'Rank', 'Joined', 'Actions']) {
      expect(within(table).getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
    expect(userRows()).toHaveLength(5);

    const root = within(userRow('root')).getAllByRole('cell');
    expect(within(root[0]!).getByRole('link', { name: 'root' })).toHaveAttribute('href', '/profile/1');
    expect(root[0]).toHaveTextContent('[OWNER]');
    expect(root[0]).not.toHaveTextContent('[ADMIN]');
    expect(root[1]).toHaveTextContent(/^root@zion\.example$/);
    expect(root[2]).toHaveTextContent(/^ACTIVE$/);
    expect(root[3]).toHaveTextContent(/^LEGEND$/);
    expect(root[4]).toHaveTextContent(/^Dec 1, 2025$/);
    expect(root[5]).toHaveTextContent(/^Protected Account$/);
    expect(within(root[5]!).queryAllByRole('button')).toHaveLength(0);

    const morpheus = within(userRow('morpheus')).getAllByRole('cell');
    expect(morpheus[0]).toHaveTextContent('[ADMIN]');
    expect(morpheus[0]).not.toHaveTextContent('[OWNER]');
    expect(morpheus[3]).toHaveTextContent(/^USER$/);

    const trinity = within(userRow('trinity')).getAllByRole('cell');
    expect(trinity[0]).not.toHaveTextContent('[ADMIN]');
    expect(within(trinity[0]!).getByText('trinity')).toHaveClass('rank-cyber-ghost');
    expect(trinity[3]).toHaveTextContent(/^CYBER GHOST$/);
    expect(trinity[4]).toHaveTextContent(/^Jan 5, 2026$/);

    const tank = within(userRow('tank')).getAllByRole('cell');
    expect(tank[2]).toHaveTextContent(/^BANNED$/);
    expect(tank[3]).toHaveTextContent(/^NEWBIE$/);

    expect(within(userRow('neo')).getAllByRole('cell')[0]).toHaveTextContent('(you)');
    expect(screen.getByText('Showing 5 users')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
  });

  it('shows ten placeholder rows while loading', () => {
    adminApi({ users: [] });
    renderScreen(<AdminScreen />, { path: '/admin', user: adminViewer() });
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(10);
  });

  it('an admin sees the actions SPEC §6 allows, and none on the owner row', async () => {
    renderAdmin(adminViewer(), { users: everyone() });
    await screen.findByRole('row', { name: 'root' });
    expect(actionLabels('root')).toEqual([]);
    expect(within(userRow('root')).getByText('Protected Account')).toBeInTheDocument();
    // Another admin's account is the owner's alone: no action at all, and the row says so.
    expect(actionLabels('morpheus')).toEqual([]);
    expect(within(userRow('morpheus')).queryAllByRole('button')).toHaveLength(0);
    expect(within(userRow('morpheus')).getByText('Owner only')).toBeInTheDocument();
    expect(actionLabels('trinity')).toEqual([
      'BAN',
      'SILENCE',
      'EDIT USERNAME',
      'DELETE AVATAR',
      'GRADES',
      'DELETE',
      'DELETE SPAMMER',
    ]);
    // Banned, and no avatar to delete.
    expect(actionLabels('tank')).toEqual([
      'UNBAN',
      'SILENCE',
      'EDIT USERNAME',
      'GRADES',
      'DELETE',
      'DELETE SPAMMER',
    ]);
    // One's own row: no ban, no delete.
    expect(actionLabels('neo')).toEqual(['EDIT USERNAME', 'GRADES']);
  });

  it('the owner may also delete admins and grant or revoke admin', async () => {
    renderAdmin(ownerViewer(), { users: [rootRow(), morpheusRow(), trinityRow(), tankRow()] });
    await screen.findByRole('row', { name: 'root' });
    expect(actionLabels('root')).toEqual([]);
    expect(within(userRow('root')).getByText('Protected Account')).toBeInTheDocument();
    expect(actionLabels('morpheus')).toEqual([
      'BAN',
      'SILENCE',
      'EDIT USERNAME',
      'DELETE AVATAR',
      'GRADES',
      'REVOKE ADMIN',
      'DELETE',
      'DELETE SPAMMER',
    ]);
    expect(actionLabels('trinity')).toEqual([
      'BAN',
      'SILENCE',
      'EDIT USERNAME',
      'DELETE AVATAR',
      'GRADES',
      'MAKE ADMIN',
      'DELETE',
      'DELETE SPAMMER',
    ]);
    expect(actionLabels('tank')).toEqual([
      'UNBAN',
      'SILENCE',
      'EDIT USERNAME',
      'GRADES',
      'MAKE ADMIN',
      'DELETE',
      'DELETE SPAMMER',
    ]);
  });

  it('offers DELETE AVATAR for an avatar that is a profile image (SPEC §3), as the server deletes it', async () => {
    renderAdmin(adminViewer(), { users: [{ ...tankRow(), profileImageUrl: 'https://cdn.test/tank.png' }] });
    await screen.findByRole('row', { name: 'tank' });
    expect(actionLabels('tank')).toEqual([
      'UNBAN',
      'SILENCE',
      'EDIT USERNAME',
      'DELETE AVATAR',
      'GRADES',
      'DELETE',
      'DELETE SPAMMER',
    ]);
  });

  it.each([
    {
      label: 'BAN',
      target: 'trinity',
      prompt: 'Ban trinity?',
      confirm: 'BAN',
      call: { method: 'POST', url: '/api/admin/users/3/ban', body: undefined },
      toast: 'User banned',
    },
    {
      label: 'UNBAN',
      target: 'tank',
      prompt: 'Unban tank?',
      confirm: 'UNBAN',
      call: { method: 'POST', url: '/api/admin/users/9/unban', body: undefined },
      toast: 'User unbanned',
    },
    {
      label: 'DELETE',
      target: 'trinity',
      prompt: 'Delete trinity?',
      confirm: 'DELETE',
      call: { method: 'DELETE', url: '/api/admin/users/3', body: undefined },
      toast: 'User deleted',
    },
    {
      label: 'DELETE AVATAR',
      target: 'trinity',
      prompt: "Delete trinity's avatar?",
      confirm: 'DELETE AVATAR',
      call: { method: 'DELETE', url: '/api/admin/users/3/avatar', body: undefined },
      toast: 'Avatar deleted',
    },
    {
      label: 'MAKE ADMIN',
      target: 'trinity',
      prompt: 'Make trinity an admin?',
      confirm: 'MAKE ADMIN',
      call: { method: 'PUT', url: '/api/admin/users/3/admin', body: { isAdmin: true } },
      toast: 'Admin granted',
    },
    {
      label: 'REVOKE ADMIN',
      target: 'morpheus',
      prompt: 'Revoke admin from morpheus?',
      confirm: 'REVOKE ADMIN',
      call: { method: 'PUT', url: '/api/admin/users/8/admin', body: { isAdmin: false } },
      toast: 'Admin revoked',
    },
  ])('$label: confirm prompt, then the call, the toast and the table read again', async (action) => {
    const { calls, user } = renderAdmin(ownerViewer(), { users: everyone() });
    await screen.findByRole('row', { name: action.target });
    const group = () => within(userRow(action.target)).getByRole('group');

    // Cancelled: nothing is sent.
    await user.click(within(group()).getByRole('button', { name: action.label }));
    let dialog = await screen.findByRole('alertdialog', { name: action.prompt });
    await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
    await dialogClosed();
    expect(writes(calls)).toEqual([]);

    await user.click(within(group()).getByRole('button', { name: action.label }));
    dialog = await screen.findByRole('alertdialog', { name: action.prompt });
    await user.click(within(dialog).getByRole('button', { name: action.confirm }));
    await expectToast(action.toast, action.target);
    expect(writes(calls)).toEqual([action.call]);
    await waitFor(() => expect(reads(calls, API.adminUsers)).toHaveLength(2));
  });

  it('DELETE offers the two choices: keep their posts (the default) or delete them too', async () => {
    const { calls, user } = renderAdmin(ownerViewer(), { users: everyone() });
    await screen.findByRole('row', { name: 'trinity' });
    await user.click(
      within(within(userRow('trinity')).getByRole('group')).getByRole('button', { name: 'DELETE' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete trinity?' });
    expect(within(dialog).getByRole('radio', { name: /Keep their pastes and replies/ })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: /Delete their pastes and replies/ }));
    await user.click(within(dialog).getByRole('button', { name: 'DELETE' }));
    await expectToast('User deleted', 'trinity');
    expect(writes(calls)).toEqual([
      { method: 'DELETE', url: '/api/admin/users/3?keepContent=false', body: undefined },
    ]);
  });

  it('shows the new state once the table is read again', async () => {
    const state: AdminState = { users: [trinityRow()] };
    const { user } = renderAdmin(adminViewer(), state, () => {
      state.users = [trinityRow(), tankRow()].map((row) => ({ ...row, isBanned: true }));
      return {};
    });
    await user.click(await screen.findByRole('button', { name: 'BAN' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Ban trinity?' })).getByRole('button', {
        name: 'BAN',
      }),
    );
    await waitFor(() =>
      expect(within(userRow('trinity')).getAllByRole('cell')[2]).toHaveTextContent('BANNED'),
    );
    expect(actionLabels('trinity')).toEqual([
      'UNBAN',
      'SILENCE',
      'EDIT USERNAME',
      'DELETE AVATAR',
      'GRADES',
      'DELETE',
      'DELETE SPAMMER',
    ]);
  });

  it("a ban landing while the filtered table's first read is on the way shows BANNED: that read is replaced", async () => {
    let banned = false;
    const trinity = () => ({ users: [{ ...trinityRow(), isBanned: banned }], nextCursor: null });
    const slowFirstFilteredRead = deferred();
    let filteredReads = 0;
    const calls = stubFetch((call) => {
      if (call.method !== 'GET') {
        banned = true;
        return {};
      }
      if (call.url.includes('?q=') && ++filteredReads === 1) {
        const before = trinity(); // read before the ban commits, answered after it
        return slowFirstFilteredRead.promise.then(() => ({ body: before }));
      }
      return { body: trinity() };
    });
    const { user } = renderScreen(<AdminScreen />, { path: '/admin', user: adminViewer() });
    await screen.findByRole('row', { name: 'trinity' });
    await user.type(screen.getByRole('searchbox', { name: 'Filter users by name or e-mail' }), 'trinity');
    await waitFor(() => expect(filteredReads).toBe(1));

    await user.click(within(userRow('trinity')).getByRole('button', { name: 'BAN' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Ban trinity?' });
    await user.click(within(dialog).getByRole('button', { name: 'BAN' }));
    await expectToast('User banned', 'trinity');
    slowFirstFilteredRead.resolve({});

    await waitFor(() =>
      expect(within(userRow('trinity')).getAllByRole('cell')[2]).toHaveTextContent('BANNED'),
    );
    expect(reads(calls, '/api/admin/users?q=trinity')).toHaveLength(2);
  });

  it("toasts the server's refusal", async () => {
    // trinity was made an admin since the table was read: the server refuses.
    const { calls, user } = renderAdmin(adminViewer(), { users: [trinityRow()] }, () => ({
      status: 403,
      body: errorBody(403, "Only the owner can act on another admin's account"),
    }));
    await user.click(await screen.findByRole('button', { name: 'BAN' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Ban trinity?' });
    await user.click(within(dialog).getByRole('button', { name: 'BAN' }));
    await expectToast('Error', "Only the owner can act on another admin's account");
    expect(writes(calls)).toHaveLength(1);
    expect(document.querySelector('.tp-toast')).toHaveClass('tp-toast--destructive');
    // Nothing changed: the table is not read again.
    expect(reads(calls, API.adminUsers)).toHaveLength(1);
  });

  describe('EDIT USERNAME', () => {
    it('refuses an empty name with "Username cannot be empty" and sends nothing', async () => {
      const { calls, user } = renderAdmin(adminViewer(), { users: [trinityRow()] });
      await user.click(await screen.findByRole('button', { name: 'EDIT USERNAME' }));
      const form = screen.getByRole('form', { name: 'Rename trinity' });
      const box = within(form).getByRole('textbox', { name: 'New username' });
      expect(box).toHaveValue('trinity');
      expect(box).toHaveFocus();
      expect(screen.getByRole('button', { name: 'EDIT USERNAME' })).toBeDisabled();

      await user.clear(box);
      await user.type(box, '   ');
      await user.click(within(form).getByRole('button', { name: 'SAVE' }));
      expect(within(form).getByRole('alert')).toHaveTextContent(/^Username cannot be empty$/);
      expect(box).toHaveAttribute('aria-invalid', 'true');
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      expect(writes(calls)).toEqual([]);

      // The sign-up rules apply too; typing clears the error.
      await user.type(box, 'a b');
      expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
      await user.keyboard('{Enter}');
      expect(within(form).getByRole('alert')).toHaveTextContent(
        'Username may contain only letters, digits, _ and -',
      );
      expect(writes(calls)).toEqual([]);
    });

    it('confirms, then saves the trimmed name and toasts "Username updated"', async () => {
      const { calls, user } = renderAdmin(adminViewer(), { users: [trinityRow()] });
      await user.click(await screen.findByRole('button', { name: 'EDIT USERNAME' }));
      const box = screen.getByRole('textbox', { name: 'New username' });
      await user.clear(box);
      await user.type(box, '  trin1ty ');
      await user.click(screen.getByRole('button', { name: 'SAVE' }));

      const dialog = await screen.findByRole('alertdialog', { name: 'Rename trinity to trin1ty?' });
      expect(writes(calls)).toEqual([]);
      await user.click(within(dialog).getByRole('button', { name: 'RENAME' }));
      await expectToast('Username updated', 'trinity → trin1ty');
      expect(writes(calls)).toEqual([
        { method: 'PUT', url: '/api/admin/users/3/username', body: { username: 'trin1ty' } },
      ]);
      await waitFor(() => expect(screen.queryByRole('form')).not.toBeInTheDocument());
      // Neither the viewer's own name: the current user is not read again.
      expect(urls(calls)).not.toContain(API.currentUser);
    });

    it('a cancelled prompt keeps the form; CANCEL and Escape close it without a call', async () => {
      const { calls, user } = renderAdmin(adminViewer(), { users: [trinityRow()] });
      await user.click(await screen.findByRole('button', { name: 'EDIT USERNAME' }));
      await user.type(screen.getByRole('textbox', { name: 'New username' }), 'x');
      await user.click(screen.getByRole('button', { name: 'SAVE' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Rename trinity to trinityx?' });
      await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
      await dialogClosed();
      expect(screen.getByRole('textbox', { name: 'New username' })).toHaveValue('trinityx');

      await user.click(screen.getByRole('button', { name: 'CANCEL' }));
      expect(screen.queryByRole('form')).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'EDIT USERNAME' }));
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('form')).not.toBeInTheDocument();

      // Saving the unchanged name just closes the form.
      await user.click(screen.getByRole('button', { name: 'EDIT USERNAME' }));
      await user.click(screen.getByRole('button', { name: 'SAVE' }));
      expect(screen.queryByRole('form')).not.toBeInTheDocument();
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      expect(writes(calls)).toEqual([]);
    });

    it("toasts the server's message and keeps the form open", async () => {
      const { user } = renderAdmin(adminViewer(), { users: [trinityRow()] }, () => ({
        status: 409,
        body: errorBody(409, 'Username already taken'),
      }));
      await user.click(await screen.findByRole('button', { name: 'EDIT USERNAME' }));
      await user.type(screen.getByRole('textbox', { name: 'New username' }), '2');
      await user.click(screen.getByRole('button', { name: 'SAVE' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Rename trinity to trinity2?' });
      await user.click(within(dialog).getByRole('button', { name: 'RENAME' }));
      await expectToast('Error', 'Username already taken');
      expect(screen.getByRole('textbox', { name: 'New username' })).toHaveValue('trinity2');
    });

    it('renaming oneself reads the current user again (the top bar shows the name)', async () => {
      const { calls, user } = renderAdmin(adminViewer(), { users: [neoRow()] });
      await user.click(await screen.findByRole('button', { name: 'EDIT USERNAME' }));
      await user.type(screen.getByRole('textbox', { name: 'New username' }), '_one');
      await user.click(screen.getByRole('button', { name: 'SAVE' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Rename neo to neo_one?' });
      await user.click(within(dialog).getByRole('button', { name: 'RENAME' }));
      await expectToast('Username updated');
      await waitFor(() => expect(reads(calls, API.currentUser)).toHaveLength(1));
    });
  });

  describe('GRADES', () => {
    it('ticks the owned grades and saves the chosen ones with PUT grades', async () => {
      const { calls, user } = renderAdmin(adminViewer(), { users: [trinityRow()] });
      const button = await screen.findByRole('button', { name: 'GRADES' });
      expect(button).toHaveAttribute('aria-expanded', 'false');
      await user.click(button);
      expect(button).toHaveAttribute('aria-expanded', 'true');
      const panel = screen.getByRole('dialog', { name: 'VIP grades of trinity' });
      const boxes = within(panel).getAllByRole('checkbox');
      expect(boxes.map((box) => box.getAttribute('aria-label'))).toEqual([
        'Elite Hacker',
        'Cyber Ghost',
        'Script Kiddie',
        'Digital Phantom',
      ]);
      expect(boxes.map((box) => (box as HTMLInputElement).checked)).toEqual([false, true, false, false]);

      await user.click(within(panel).getByRole('checkbox', { name: 'Digital Phantom' }));
      await user.click(within(panel).getByRole('checkbox', { name: 'Cyber Ghost' }));
      await user.click(within(panel).getByRole('checkbox', { name: 'Elite Hacker' }));
      await user.click(within(panel).getByRole('button', { name: 'SAVE GRADES' }));
      const dialog = await screen.findByRole('alertdialog', { name: "Update trinity's VIP grades?" });
      expect(dialog).toHaveTextContent('Owned: Elite Hacker, Digital Phantom');
      expect(writes(calls)).toEqual([]);
      await user.click(within(dialog).getByRole('button', { name: 'SAVE GRADES' }));

      await expectToast('Grades updated', 'trinity');
      expect(writes(calls)).toEqual([
        {
          method: 'PUT',
          url: '/api/admin/users/3/grades',
          body: { grades: ['Elite Hacker', 'Digital Phantom'] },
        },
      ]);
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('may take every grade away; CANCEL closes without a call', async () => {
      const { calls, user } = renderAdmin(adminViewer(), { users: [trinityRow()] });
      await user.click(await screen.findByRole('button', { name: 'GRADES' }));
      await user.click(screen.getByRole('button', { name: 'CANCEL' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(writes(calls)).toEqual([]);

      await user.click(screen.getByRole('button', { name: 'GRADES' }));
      await user.click(screen.getByRole('checkbox', { name: 'Cyber Ghost' }));
      await user.click(screen.getByRole('button', { name: 'SAVE GRADES' }));
      const dialog = await screen.findByRole('alertdialog', { name: "Update trinity's VIP grades?" });
      expect(dialog).toHaveTextContent('No VIP grades.');
      await user.click(within(dialog).getByRole('button', { name: 'SAVE GRADES' }));
      await expectToast('Grades updated');
      expect(writes(calls)).toEqual([
        { method: 'PUT', url: '/api/admin/users/3/grades', body: { grades: [] } },
      ]);
    });
  });

  it('filters by name or e-mail after a pause in typing, sending ?q= once', async () => {
    const state: AdminState = { users: [rootRow(), trinityRow()] };
    const { calls, user } = renderAdmin(adminViewer(), state);
    await screen.findByRole('row', { name: 'trinity' });
    state.users = [trinityRow()];
    const box = screen.getByRole('searchbox', { name: 'Filter users by name or e-mail' });
    await user.type(box, ' zion.ex ');
    expect(urls(calls)).toEqual(['/api/admin/users']);
    await waitFor(() => expect(userRows()).toHaveLength(1));
    expect(urls(calls)).toEqual(['/api/admin/users', '/api/admin/users?q=zion.ex']);

    state.users = [];
    await user.clear(box);
    await user.type(box, 'a&b');
    expect(await screen.findByText('No users match "a&b".')).toBeInTheDocument();
    expect(urls(calls).at(-1)).toBe('/api/admin/users?q=a%26b');
  });

  it('loads more users with the cursor while there is a next page', async () => {
    const state: AdminState = { users: [rootRow(), trinityRow()], nextCursor: 'c2' };
    const { calls, user } = renderAdmin(adminViewer(), state);
    expect(await screen.findByText('Showing 2 users')).toBeInTheDocument();
    state.users = [tankRow()];
    state.nextCursor = null;
    await user.click(screen.getByRole('button', { name: 'LOAD MORE' }));
    await waitFor(() => expect(userRows()).toHaveLength(3));
    expect(urls(calls)).toEqual(['/api/admin/users', '/api/admin/users?cursor=c2']);
    expect(screen.getByText('Showing 3 users')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
  });

  it('says when there are no users', async () => {
    renderAdmin(adminViewer(), { users: [] });
    expect(await screen.findByText('No users yet.')).toBeInTheDocument();
  });

  it('says when the users cannot be loaded', async () => {
    stubFetch(() => ({ status: 500, body: 'boom' }));
    renderScreen(<AdminScreen />, { path: '/admin', user: adminViewer() });
    expect(await screen.findByText('Could not load users. Try again in a moment.')).toBeInTheDocument();
  });
});
