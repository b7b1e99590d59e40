import { API, type NotificationsPage } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { screen, waitFor } from '@testing-library/react';
import {
  FakeWebSocket,
  connectedSocket,
  openSockets,
  renderScreen,
  sampleChat,
  sampleNotification,
  stubApi,
} from '../testing';
import { ChatPopover } from './chat-popover';
import { NotificationsScreen } from './notifications';

// The panel's contents are fetched when it first opens: loaded once for the file, so no test waits on jest.
beforeAll(() => import('../components/chat-panel'));

const items = () => screen.queryAllByTestId('notification');
const toggle = () => screen.getByRole('button', { name: 'Open global chat' });

describe('one live socket per tab (UiProvider)', () => {
  it('is user-scoped for /notifications, carries the chat while the popover is open, and is one at a time', async () => {
    const state: { page: NotificationsPage } = {
      page: { notifications: [sampleNotification()], nextCursor: null, unreadCount: 1 },
    };
    stubApi((url) => {
      if (url === API.notifications) return state.page;
      if (url === '/api/chat') return [sampleChat()];
      if (url === API.currentUser) return sampleCurrentUser();
      return undefined;
    });
    // The notifications screen with the chat popover over it, as the shell shows a remote's widget.
    const { user } = renderScreen(
      <>
        <NotificationsScreen />
        <ChatPopover />
      </>,
      { path: '/notifications' },
    );
    await waitFor(() => expect(items()).toHaveLength(1));
    const userScoped = await connectedSocket();
    expect(userScoped.url).toBe('ws://localhost/ws/chat?scope=user');
    expect(openSockets()).toHaveLength(1);

    await user.click(toggle());
    const full = await connectedSocket(1);
    expect(full.url).toBe('ws://localhost/ws/chat');
    expect(openSockets()).toEqual([full]);

    // The notifications screen hears its events on the chat's socket too.
    const arrived = sampleNotification({ id: 40, content: 'oracle mentioned you' });
    state.page = { notifications: [arrived, sampleNotification()], nextCursor: null, unreadCount: 2 };
    full.serverSend({ type: 'notification', notification: arrived });
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(items()[0]).toHaveTextContent('oracle mentioned you');

    await user.click(toggle());
    const again = await connectedSocket(2);
    expect(again.url).toBe('ws://localhost/ws/chat?scope=user');
    expect(openSockets()).toEqual([again]);
    expect(FakeWebSocket.instances).toHaveLength(3);
  });
});
