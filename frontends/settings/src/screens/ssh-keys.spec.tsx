import { SSH_KEY_MESSAGES, type SshKey } from '@termpaste/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { errorBody, renderScreen, stubFetch, writes, type FetchCall } from '../testing';
import { SshKeysScreen } from './ssh-keys';

const LINE = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@laptop';

function sampleKey(overrides: Partial<SshKey> = {}): SshKey {
  return {
    id: 4,
    title: 'laptop',
    type: 'ssh-ed25519',
    fingerprint: 'SHA256:qT1nW0lF9a8t4m0Yw3h5r7JXh0s2Qd0Qv6yD7bC1pE8',
    publicKey: LINE.split(' ').slice(0, 2).join(' '),
    createdAt: '2026-11-20T12:00:00.000Z',
    ...overrides,
  };
}

/** The keys API as a test plays it: GET answers `state.keys`; every write goes to `onWrite`. */
function server(
  state: { keys: SshKey[] },
  onWrite: (call: FetchCall) => { status?: number; body?: unknown },
) {
  return stubFetch((call) => {
    if (call.method === 'GET' && call.url === '/api/user/keys') return { body: state.keys };
    if (call.method === 'GET') return { status: 404, body: 'not stubbed' };
    return onWrite(call);
  });
}

describe('SshKeysScreen', () => {
  it('lists the keys with their fingerprints and the verify line for this member', async () => {
    server({ keys: [sampleKey()] }, () => ({}));
    renderScreen(<SshKeysScreen />, { path: '/settings/keys' });
    const item = await screen.findByRole('listitem', { name: 'laptop' });
    expect(within(item).getByTestId('ssh-key-fingerprint')).toHaveTextContent(sampleKey().fingerprint);
    expect(screen.getByTestId('ssh-key-count')).toHaveTextContent('1/10');
    expect(screen.getByTestId('verify-line')).toHaveTextContent('ssh-keygen -Y verify -f allowed_signers');
  });

  it('adds a key with its title, and shows the server’s reason under the field when it refuses one', async () => {
    const state = { keys: [] as SshKey[] };
    const calls = server(state, (call) => {
      const body = call.body as { key: string; title?: string };
      if (body.key.includes('PRIVATE'))
        return { status: 400, body: errorBody(400, SSH_KEY_MESSAGES.privateKey) };
      state.keys = [sampleKey({ title: body.title ?? 'me@laptop' })];
      return { status: 201, body: state.keys[0] };
    });
    const { user } = renderScreen(<SshKeysScreen />, { path: '/settings/keys' });
    await screen.findByText(/No SSH keys yet/);
    await user.type(
      screen.getByRole('textbox', { name: 'Public key' }),
      '-----BEGIN OPENSSH PRIVATE KEY-----',
    );
    await user.click(screen.getByRole('button', { name: 'ADD KEY' }));
    expect(await screen.findByTestId('ssh-key-problem')).toHaveTextContent(SSH_KEY_MESSAGES.privateKey);
    await user.clear(screen.getByRole('textbox', { name: 'Public key' }));
    await user.type(screen.getByRole('textbox', { name: 'Public key' }), LINE);
    await user.type(screen.getByRole('textbox', { name: 'Title (optional)' }), 'work');
    await user.click(screen.getByRole('button', { name: 'ADD KEY' }));
    await screen.findByRole('listitem', { name: 'work' });
    expect(writes(calls).at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/user/keys',
      body: { key: LINE, title: 'work' },
    });
    await waitFor(() => expect(screen.queryByTestId('ssh-key-problem')).toBeNull());
  });

  it('deletes a key only after the confirmation', async () => {
    const state = { keys: [sampleKey()] };
    const calls = server(state, () => {
      state.keys = [];
      return { status: 204 };
    });
    const { user } = renderScreen(<SshKeysScreen />, { path: '/settings/keys' });
    const item = await screen.findByRole('listitem', { name: 'laptop' });
    await user.click(within(item).getByRole('button', { name: 'DELETE laptop' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'DELETE' }));
    await screen.findByText(/No SSH keys yet/);
    expect(writes(calls)).toMatchObject([{ method: 'DELETE', url: '/api/user/keys/4' }]);
  });
});
