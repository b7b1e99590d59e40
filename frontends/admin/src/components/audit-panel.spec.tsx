import { screen, waitFor, within } from '@testing-library/react';
import { AdminScreen } from '../screens/admin';
import {
  adminViewer,
  minutesAgo,
  renderScreen,
  sampleAuditEntry,
  stubFetch,
  urls,
  type FetchCall,
} from '../testing';
import type { AuditEntry } from '@termpaste/contracts';
import { AUDIT_ACTIONS } from '@termpaste/contracts/admin';

/** Renders /admin?tab=audit with the log answered by `answer` (per call). */
function renderAudit(answer: (call: FetchCall) => { entries: AuditEntry[]; nextCursor: string | null }) {
  const calls = stubFetch((call) => ({ body: answer(call) }));
  const { user } = renderScreen(<AdminScreen />, { path: '/admin?tab=audit', user: adminViewer() });
  return { calls, user };
}

const entryRows = () =>
  within(screen.getByRole('table', { name: 'Audit log' }))
    .getAllByRole('row')
    .slice(1);

describe('AUDIT LOG tab', () => {
  it('lists staff actions newest first: time, actor, action, target and the change', async () => {
    renderAudit(() => ({
      entries: [
        sampleAuditEntry(),
        sampleAuditEntry({
          id: 60,
          action: 'user.rename',
          actorId: null,
          actorName: 'smith',
          targetId: 3,
          targetLabel: 'trin1ty',
          before: { username: 'trinity' },
          after: { username: 'trin1ty' },
          createdAt: minutesAgo(125),
        }),
        sampleAuditEntry({
          id: 59,
          action: 'thread.pin',
          targetType: 'thread',
          targetId: 5,
          targetLabel: 'nmap cheatsheet',
          before: { isPinned: false },
          after: { isPinned: true },
        }),
        sampleAuditEntry({
          id: 58,
          action: 'thread.delete',
          targetType: 'thread',
          targetId: 4,
          targetLabel: 'spam',
          before: { title: 'spam' },
          after: null,
        }),
        sampleAuditEntry({
          id: 57,
          action: 'reply.delete',
          targetType: 'reply',
          targetId: 11,
          targetLabel: 'reply on nmap cheatsheet',
          before: null,
          after: null,
        }),
      ],
      nextCursor: null,
    }));
    await screen.findByTestId('audit-61');
    const table = screen.getByRole('table', { name: 'Audit log' });
    for (const column of ['Time', 'Actor', 'Action', 'Target', 'Change']) {
      expect(within(table).getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
    const rows = entryRows();
    expect(rows).toHaveLength(5);

    const ban = within(rows[0]!).getAllByRole('cell');
    expect(ban[0]).toHaveTextContent(/^10 minutes ago$/);
    expect(within(ban[1]!).getByRole('link', { name: 'morpheus' })).toHaveAttribute('href', '/profile/8');
    expect(ban[2]).toHaveTextContent(/^Banned user$/);
    expect(within(ban[2]!).getByText('Banned user')).toHaveAttribute('title', 'user.ban');
    expect(within(ban[3]!).getByRole('link', { name: 'user tank' })).toHaveAttribute('href', '/profile/9');
    expect(ban[4]).toHaveTextContent(/^isBanned: false → isBanned: true$/);

    const rename = within(rows[1]!).getAllByRole('cell');
    expect(rename[0]).toHaveTextContent(/^about 2 hours ago$/);
    // The actor's account is gone: the name stays, without a link.
    expect(within(rename[1]!).queryByRole('link')).not.toBeInTheDocument();
    expect(rename[1]).toHaveTextContent(/^smith$/);
    expect(rename[2]).toHaveTextContent(/^Renamed user$/);
    expect(rename[4]).toHaveTextContent(/^username: trinity → username: trin1ty$/);

    const pin = within(rows[2]!).getAllByRole('cell');
    expect(within(pin[3]!).getByRole('link', { name: 'paste nmap cheatsheet' })).toHaveAttribute(
      'href',
      '/thread/5',
    );
    // A deleted paste and a reply have no page to link to.
    const deleted = within(rows[3]!).getAllByRole('cell');
    expect(deleted[2]).toHaveTextContent(/^Deleted paste$/);
    expect(deleted[3]).toHaveTextContent(/^paste spam$/);
    expect(within(deleted[3]!).queryByRole('link')).not.toBeInTheDocument();
    expect(deleted[4]).toHaveTextContent(/^title: spam$/);
    const reply = within(rows[4]!).getAllByRole('cell');
    expect(within(reply[3]!).queryByRole('link')).not.toBeInTheDocument();
    expect(reply[4]).toHaveTextContent(/^—$/);

    expect(screen.getByText('Showing 5 entries')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
  });

  it('filters by action at once and by name after a pause in typing', async () => {
    const { calls, user } = renderAudit((call) => ({
      entries: call.url.includes('action=user.ban') ? [sampleAuditEntry()] : [],
      nextCursor: null,
    }));
    expect(await screen.findByText('No staff actions yet.')).toBeInTheDocument();
    const select = screen.getByRole('combobox', { name: 'Filter by action' });
    const options = within(select).getAllByRole('option');
    // Every action and "All actions".
    expect(options).toHaveLength(AUDIT_ACTIONS.length + 1);
    expect(options[0]).toHaveTextContent('All actions');
    expect(options.map((option) => option.textContent)).toContain('Granted admin');
    // An admin's edit of another member's paste or reply.
    expect(options.map((option) => option.textContent)).toEqual(
      expect.arrayContaining(['Edited paste', 'Edited reply']),
    );
    // An admin's removal of a version of another member's paste or reply.
    expect(options.map((option) => option.textContent)).toEqual(
      expect.arrayContaining(['Redacted paste', 'Redacted reply']),
    );

    await user.selectOptions(select, 'Banned user');
    expect(await screen.findByTestId('audit-61')).toBeInTheDocument();
    expect(urls(calls)).toEqual(['/api/admin/audit', '/api/admin/audit?action=user.ban']);

    await user.type(screen.getByRole('searchbox', { name: 'Filter by name' }), ' tank ');
    await waitFor(() => expect(urls(calls)).toHaveLength(3));
    expect(urls(calls)[2]).toBe('/api/admin/audit?action=user.ban&q=tank');
    await user.selectOptions(select, 'All actions');
    expect(await screen.findByText('No staff actions match.')).toBeInTheDocument();
    expect(urls(calls).at(-1)).toBe('/api/admin/audit?q=tank');
  });

  it('loads older entries with the cursor while there is a next page', async () => {
    const { calls, user } = renderAudit((call) =>
      call.url.includes('cursor=')
        ? { entries: [sampleAuditEntry({ id: 12, action: 'user.unban' })], nextCursor: null }
        : { entries: [sampleAuditEntry()], nextCursor: 'c61' },
    );
    expect(await screen.findByText('Showing 1 entry')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'LOAD MORE' }));
    await waitFor(() => expect(entryRows()).toHaveLength(2));
    expect(urls(calls)).toEqual(['/api/admin/audit', '/api/admin/audit?cursor=c61']);
    expect(within(entryRows()[1]!).getByText('Unbanned user')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
  });

  it('says when the log cannot be loaded', async () => {
    stubFetch(() => ({ status: 500, body: 'boom' }));
    renderScreen(<AdminScreen />, { path: '/admin?tab=audit', user: adminViewer() });
    expect(
      await screen.findByText('Could not load the audit log. Try again in a moment.'),
    ).toBeInTheDocument();
  });
});
