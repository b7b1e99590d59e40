import { screen, waitFor, within } from '@testing-library/react';
import {
  adminApi,
  adminViewer,
  morpheusRow,
  ownerViewer,
  renderScreen,
  rootRow,
  sampleAuditEntry,
  stubFetch,
  trinityRow,
  urls,
} from '../testing';
import { AdminScreen } from './admin';

describe('admin panel (SPEC §2 /admin)', () => {
  it('tells a member ACCESS DENIED [403] and fetches nothing', () => {
    const calls = stubFetch(() => ({ body: {} }));
    renderScreen(<AdminScreen />, { path: '/admin' });
    expect(screen.getByText('ACCESS DENIED [403]')).toBeInTheDocument();
    expect(screen.getByText('Admin privileges required')).toBeInTheDocument();
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('tells a signed-out visitor the same', () => {
    const calls = stubFetch(() => ({ body: {} }));
    renderScreen(<AdminScreen />, { path: '/admin', user: null });
    expect(screen.getByText('ACCESS DENIED [403]')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('opens on the USERS tab, and the AUDIT LOG tab is kept in the address', async () => {
    const calls = adminApi({ users: [rootRow(), trinityRow()], entries: [sampleAuditEntry()] });
    const { user } = renderScreen(<AdminScreen />, { path: '/admin', user: adminViewer() });

    const tabs = screen.getByRole('tablist', { name: 'Admin sections' });
    const usersTab = within(tabs).getByRole('tab', { name: 'USERS' });
    const auditTab = within(tabs).getByRole('tab', { name: 'AUDIT LOG' });
    expect(usersTab).toHaveAttribute('aria-selected', 'true');
    expect(auditTab).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByRole('tabpanel', { name: 'USERS' })).toBeInTheDocument();
    expect(await screen.findByRole('row', { name: 'trinity' })).toBeInTheDocument();
    expect(urls(calls)).toEqual(['/api/admin/users']);

    await user.click(auditTab);
    expect(auditTab).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'AUDIT LOG' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Audit log' })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Users' })).not.toBeInTheDocument();
    expect(urls(calls)).toEqual(['/api/admin/users', '/api/admin/audit']);

    // Arrow keys move between the tabs.
    await user.keyboard('{ArrowLeft}');
    expect(usersTab).toHaveAttribute('aria-selected', 'true');
    expect(usersTab).toHaveFocus();
    expect(await screen.findByRole('table', { name: 'Users' })).toBeInTheDocument();
  });

  it('opens the audit log directly from /admin?tab=audit', async () => {
    adminApi({ users: [], entries: [sampleAuditEntry()] });
    renderScreen(<AdminScreen />, { path: '/admin?tab=audit', user: ownerViewer() });
    expect(screen.getByRole('tab', { name: 'AUDIT LOG' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('Banned user')).toBeInTheDocument();
  });

  it('shows the owner the same panel', async () => {
    adminApi({ users: [rootRow(), morpheusRow()] });
    renderScreen(<AdminScreen />, { path: '/admin', user: ownerViewer() });
    expect(await screen.findByRole('row', { name: 'morpheus' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('row', { name: 'root' })).toHaveTextContent('(you)'));
  });
});
