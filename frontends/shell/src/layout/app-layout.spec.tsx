import { API, LIVE_EVENT } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, UiProvider } from '@termpaste/ui';
import {
  connectedSocket,
  expectLoginRedirect,
  FakeWebSocket,
  installFakeWebSocket,
} from '@termpaste/ui/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { remoteLoader } from '../remotes/registry';
import { AppRoutes } from '../routes';

installFakeWebSocket();

const member = sampleCurrentUser({ threadCount: 0, replyCount: 0 });

/**
 * Remote screens already loaded, so nothing is fetched: home and users from forum, the chat widget (unless
 * `messaging` is false: a first visit, the remote not loaded yet).
 */
function renderAt(path: string, user = member as typeof member | null, { messaging = true } = {}) {
  const queryClient = createQueryClient();
  queryClient.setQueryData([API.currentUser], user);
  queryClient.setQueryData([API.notificationsUnreadCount], 0);
  queryClient.setQueryData(['remote-screens', 'forum'], {
    Home: () => <p>home</p>,
    Users: () => <p>users</p>,
  });
  if (messaging)
    queryClient.setQueryData(['remote-screens', 'messaging'], {
      ChatPopover: () => <button type="button">Open global chat</button>,
    });
  render(
    <UiProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </UiProvider>,
  );
  return queryClient;
}

describe('signed-in layout', () => {
  it('mounts the chat popover widget on home only', () => {
    renderAt('/');
    expect(screen.getByText('home')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open global chat' })).toBeInTheDocument();
  });

  it("on a first visit, shows the chat popover's facade on home and loads nothing of messaging", async () => {
    const load = jest.spyOn(remoteLoader, 'loadScreens');
    renderAt('/', member, { messaging: false });
    expect(screen.getByText('home')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open global chat' })).toHaveClass('tp-dock__button');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(load).not.toHaveBeenCalled();
    load.mockRestore();
  });

  it('has no chat popover on other pages', () => {
    renderAt('/users');
    expect(screen.getByText('users')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open global chat' })).not.toBeInTheDocument();
  });

  it("keeps a socket for the member's own events, and the unread badge follows it live", async () => {
    const client = renderAt('/users');
    const socket = await connectedSocket();
    expect(socket.url).toMatch(/^ws:\/\/[^/]+\/ws\/chat\?scope=user$/);
    expect(screen.queryByLabelText(/unread/)).not.toBeInTheDocument();
    socket.serverSend({ type: LIVE_EVENT.unreadCount, count: 4 });
    expect(await screen.findByLabelText('Notifications, 4 unread')).toHaveTextContent('4');
    socket.serverSend({ type: LIVE_EVENT.unreadCount, count: 0 });
    await waitFor(() => expect(screen.queryByLabelText(/unread/)).not.toBeInTheDocument());
    expect(client.getQueryData([API.notificationsUnreadCount])).toBe(0);
  });

  it('ignores frames that are not live events', async () => {
    renderAt('/users');
    const socket = await connectedSocket();
    socket.serverSend({ type: LIVE_EVENT.unreadCount, count: 2 });
    expect(await screen.findByLabelText('Notifications, 2 unread')).toBeInTheDocument();
    socket.serverSend('not json');
    socket.serverSend({ type: LIVE_EVENT.unreadCount, count: -3 });
    socket.serverSend({ type: LIVE_EVENT.unreadCount, count: 'many' });
    socket.serverSend({ type: 'unread', count: 9 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByLabelText('Notifications, 2 unread')).toBeInTheDocument();
  });

  it('sends a member signed out by staff to sign-in', async () => {
    renderAt('/users');
    const socket = await connectedSocket();
    socket.serverSend({ type: LIVE_EVENT.signedOut });
    await expectLoginRedirect();
  });

  it('opens no socket for a visitor', async () => {
    renderAt('/', null);
    expect(
      await screen.findByRole('link', { name: /access terminal/i }, { timeout: 5000 }),
    ).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakeWebSocket.instances).toHaveLength(0);
  });
});
