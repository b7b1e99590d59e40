import type { TrashEntry } from '@termpaste/contracts/admin';
import { screen, waitFor, within } from '@testing-library/react';
import { AdminScreen } from '../screens/admin';
import {
  adminViewer,
  expectToast,
  minutesAgo,
  renderScreen,
  sampleAuthor,
  stubFetch,
  urls,
  type FetchCall,
} from '../testing';

const tank = sampleAuthor({ id: 9, username: 'tank' });
const root = sampleAuthor({ id: 1, username: 'root' });

function entry(overrides: Partial<TrashEntry> = {}): TrashEntry {
  const deletedAt = minutesAgo(5);
  return {
    kind: 'paste',
    id: 5,
    threadId: 5,
    threadRef: 5,
    visibility: 'public',
    title: 'nmap cheatsheet',
    excerpt: '## Usage',
    author: sampleAuthor(),
    deletedAt,
    deletedBy: sampleAuthor(),
    purgeAt: new Date(Date.parse(deletedAt) + 30 * 86_400_000).toISOString(),
    ...overrides,
  };
}

/** /admin?tab=trash with the trash answered from `state` and writes by `onWrite`. */
function renderTrash(state: { entries: TrashEntry[] }, onWrite: (call: FetchCall) => void = () => {}) {
  const calls = stubFetch((call) => {
    if (call.method === 'GET' && call.url.startsWith('/api/admin/trash')) {
      return { body: { entries: state.entries, nextCursor: null } };
    }
    if (call.method === 'GET') return { body: { entries: [], nextCursor: null } };
    onWrite(call);
    return { body: { message: 'ok' } };
  });
  const { user } = renderScreen(<AdminScreen />, { path: '/admin?tab=trash', user: adminViewer() });
  return { calls, user };
}

const rows = () =>
  within(screen.getByRole('table', { name: 'Trash' }))
    .getAllByRole('row')
    .slice(1);

describe('TRASH tab', () => {
  it('is a tab of its own, kept in the address', async () => {
    renderTrash({ entries: [] });
    expect(screen.getByRole('tab', { name: 'TRASH' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('The trash is empty.')).toBeInTheDocument();
  });

  it('lists deleted posts: when, what, whose and by whom', async () => {
    const { calls } = renderTrash({
      entries: [
        entry({
          kind: 'reply',
          id: 13,
          title: 'nmap cheatsheet',
          excerpt: 'tank was here',
          author: tank,
          deletedBy: root,
        }),
        entry({ id: 6, threadRef: 'AbCdEfGhIjKlMnOpQrStUv', visibility: 'unlisted', title: 'secret notes' }),
      ],
    });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(urls(calls)).toContain('/api/admin/trash');
    const [reply, paste] = rows();
    expect(reply).toHaveTextContent(/reply.*nmap cheatsheet.*tank was here.*tank.*root/);
    expect(within(reply!).getByRole('link', { name: 'nmap cheatsheet' })).toHaveAttribute(
      'href',
      '/thread/5',
    );
    expect(paste).toHaveTextContent(/paste.*unlisted.*secret notes.*trinity.*its author/);
  });

  it('restores after the confirmation only, then toasts and reads the trash again', async () => {
    const state = { entries: [entry()] };
    const writes: FetchCall[] = [];
    const { user, calls } = renderTrash(state, (call) => {
      writes.push(call);
      state.entries = [];
    });
    await waitFor(() => expect(rows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'RESTORE paste nmap cheatsheet' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Restore this paste?' });
    await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(writes).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'RESTORE paste nmap cheatsheet' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Restore this paste?' });
    await user.click(within(dialog).getByRole('button', { name: 'RESTORE' }));
    await expectToast('Paste restored');
    expect(writes.map((call) => [call.method, call.url])).toEqual([['POST', '/api/admin/threads/5/restore']]);
    expect(await screen.findByText('The trash is empty.')).toBeInTheDocument();
    expect(urls(calls).filter((url) => url === '/api/admin/trash').length).toBeGreaterThanOrEqual(2);
  });

  it('restores a reply by its own route', async () => {
    const writes: FetchCall[] = [];
    const { user } = renderTrash({ entries: [entry({ kind: 'reply', id: 13 })] }, (call) =>
      writes.push(call),
    );
    await waitFor(() => expect(rows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'RESTORE reply nmap cheatsheet' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Restore this reply?' });
    await user.click(within(dialog).getByRole('button', { name: 'RESTORE' }));
    await expectToast('Reply restored');
    expect(writes.map((call) => call.url)).toEqual(['/api/admin/replies/13/restore']);
  });
});
