import { API, type Notification, type NotificationsPage } from '@termpaste/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import {
  connectedSocket,
  deferred,
  errorBody,
  expectLoginRedirect,
  expectToast,
  reads,
  renderScreen,
  sampleNotification,
  stubApi,
  stubFetch,
  writes,
  type FetchHandler,
} from '../testing';
import { NotificationsScreen } from './notifications';

const three = (): Notification[] => [
  sampleNotification(),
  sampleNotification({
    id: 32,
    type: 'message',
    content: 'morpheus sent you a message',
    threadId: null,
    isRead: false,
  }),
  sampleNotification({ id: 33, type: 'mention', content: 'tank mentioned you', threadId: 9, isRead: true }),
];

const page = (notifications: Notification[], extra: Partial<NotificationsPage> = {}): NotificationsPage => ({
  notifications,
  nextCursor: null,
  unreadCount: notifications.filter((n) => !n.isRead).length,
  ...extra,
});

/** Answers GET /api/notifications with `state.page` (and `?cursor=` pages from `state.more`). */
const server = (
  state: { page: NotificationsPage; more?: Record<string, NotificationsPage> },
  onWrite: FetchHandler = () => ({ body: { unreadCount: 0 } }),
) =>
  stubApi((url) => {
    if (url === API.notifications) return state.page;
    const cursor = /\?cursor=(.*)$/.exec(url)?.[1];
    return cursor ? state.more?.[cursor] : undefined;
  }, onWrite);

function renderNotifications() {
  return renderScreen(<NotificationsScreen />, { path: '/notifications' });
}

const items = () => screen.queryAllByTestId('notification');
const item = (text: string) => items().find((li) => li.textContent?.includes(text))!;
const heading = () => screen.getByRole('heading', { name: /NOTIFICATIONS/ });
const markAll = () => screen.queryByRole('button', { name: 'MARK ALL READ' });

describe('notifications (/notifications)', () => {
  it('lists each notification: type icon, content, time, [ NEW ] when unread, its links', async () => {
    server({ page: page(three()) });
    const { client } = renderNotifications();
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(heading()).toHaveTextContent('NOTIFICATIONS [2 unread]');
    // The top bar's badge reads the same count.
    expect(client.getQueryData([API.notificationsUnreadCount])).toBe(2);

    const reply = item('replied');
    expect(within(reply).getByRole('img', { name: 'Reply' })).toBeInTheDocument();
    expect(reply).toHaveTextContent('trinity replied to your paste "nmap cheatsheet"');
    expect(within(reply).getByText('10 minutes ago').tagName).toBe('TIME');
    expect(within(reply).getByText('[ NEW ]')).toBeInTheDocument();
    expect(within(reply).getByRole('link', { name: 'View thread' })).toHaveAttribute('href', '/thread/5');

    const message = item('morpheus');
    expect(within(message).getByRole('img', { name: 'Message' })).toBeInTheDocument();
    expect(within(message).queryByRole('link', { name: 'View thread' })).not.toBeInTheDocument();
    expect(within(message).getByRole('link', { name: 'View messages' })).toHaveAttribute('href', '/messages');

    const mention = item('tank');
    expect(within(mention).getByRole('img', { name: 'Mention' })).toBeInTheDocument();
    expect(within(mention).queryByText('[ NEW ]')).not.toBeInTheDocument();
    expect(within(mention).getByRole('link', { name: 'View thread' })).toHaveAttribute('href', '/thread/9');
  });

  it('shows placeholders while loading, then the empty state without MARK ALL READ', async () => {
    const answer = deferred();
    stubFetch(() => answer.promise);
    renderNotifications();
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    await act(async () => answer.resolve({ body: page([]) }));
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    expect(heading()).toHaveTextContent('[0 unread]');
    expect(markAll()).not.toBeInTheDocument();
  });

  it('offers MARK ALL READ only while any is unread', async () => {
    server({ page: page(three().map((n) => ({ ...n, isRead: true }))) });
    renderNotifications();
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(markAll()).not.toBeInTheDocument();
    expect(screen.queryByText('[ NEW ]')).not.toBeInTheDocument();
  });

  it('marks all read: the call, the toast, no [ NEW ] left and a zero badge', async () => {
    const calls = server({ page: page(three()) }, () => ({ body: { unreadCount: 0 } }));
    const { user, client } = renderNotifications();
    await waitFor(() => expect(items()).toHaveLength(3));
    await user.click(markAll()!);
    await expectToast('All notifications marked as read');
    expect(writes(calls)).toEqual([
      { method: 'POST', url: '/api/notifications/mark-all-read', body: undefined },
    ]);
    expect(screen.queryByText('[ NEW ]')).not.toBeInTheDocument();
    expect(markAll()).not.toBeInTheDocument();
    expect(heading()).toHaveTextContent('[0 unread]');
    expect(client.getQueryData([API.notificationsUnreadCount])).toBe(0);
  });

  it("marks one read on a click, and the top bar's count follows the server's", async () => {
    const calls = server({ page: page(three()) }, () => ({ body: { unreadCount: 1 } }));
    const { user, client } = renderNotifications();
    await waitFor(() => expect(items()).toHaveLength(3));
    await user.click(within(item('replied')).getByText(/replied/));
    await waitFor(() => expect(client.getQueryData([API.notificationsUnreadCount])).toBe(1));
    expect(writes(calls)).toEqual([{ method: 'PATCH', url: '/api/notifications/31/read', body: undefined }]);
    expect(within(item('replied')).queryByText('[ NEW ]')).not.toBeInTheDocument();
    expect(heading()).toHaveTextContent('[1 unread]');

    // A read one: clicking does nothing.
    await user.click(within(item('replied')).getByText(/replied/));
    await user.click(within(item('tank')).getByText(/tank/));
    expect(writes(calls)).toHaveLength(1);
    // Its MARK READ button does the same from the keyboard.
    await user.click(within(item('morpheus')).getByRole('button', { name: /Mark read/ }));
    await waitFor(() => expect(writes(calls)).toHaveLength(2));
    expect(writes(calls)[1]!.url).toBe('/api/notifications/32/read');
    expect(calls.filter((call) => call.method === 'GET')).toHaveLength(1);
  });

  it('puts a notification back as unread, with the error, when marking it fails', async () => {
    server({ page: page(three()) }, () => ({ status: 404, body: errorBody(404, 'Notification not found') }));
    const { user } = renderNotifications();
    await waitFor(() => expect(items()).toHaveLength(3));
    await user.click(within(item('replied')).getByText(/replied/));
    await expectToast('Error', 'Notification not found');
    expect(within(item('replied')).getByText('[ NEW ]')).toBeInTheDocument();
  });

  it('reads the next page on LOAD MORE', async () => {
    const calls = server({
      page: page(three(), { nextCursor: 'c1' }),
      more: {
        c1: page([sampleNotification({ id: 20, content: 'an older one', isRead: true })], { unreadCount: 2 }),
      },
    });
    const { user } = renderNotifications();
    await waitFor(() => expect(items()).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'LOAD MORE' }));
    await waitFor(() => expect(items()).toHaveLength(4));
    expect(reads(calls, '/api/notifications?cursor=c1')).toHaveLength(1);
    expect(items()[3]).toHaveTextContent('an older one');
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
    expect(screen.getByText('Showing 4 notifications')).toBeInTheDocument();
  });

  it('puts a notification that arrives live at the top, then reads the list again', async () => {
    const state = { page: page(three()) };
    const calls = server(state);
    const { client } = renderNotifications();
    await waitFor(() => expect(items()).toHaveLength(3));
    const socket = await connectedSocket();
    expect(socket.url).toBe('ws://localhost/ws/chat?scope=user');

    const arrived = sampleNotification({
      id: 40,
      type: 'mention',
      content: 'oracle mentioned you',
      threadId: 2,
    });
    state.page = page([arrived, ...three()]);
    socket.serverSend({ type: 'notification', notification: arrived });
    socket.serverSend({ type: 'unread_count', count: 3 });
    await waitFor(() => expect(items()).toHaveLength(4));
    expect(items()[0]).toHaveTextContent('oracle mentioned you');
    expect(client.getQueryData([API.notificationsUnreadCount])).toBe(3);
    await waitFor(() => expect(reads(calls, API.notifications)).toHaveLength(2));
    expect(items()).toHaveLength(4);
    expect(heading()).toHaveTextContent('[3 unread]');
  });

  it('sends the member to sign in again when the session is gone', async () => {
    stubFetch(() => ({ status: 401, body: errorBody(401, 'Unauthorized') }));
    renderNotifications();
    await expectLoginRedirect();
    expect(await screen.findByText(/Could not load notifications/)).toBeInTheDocument();
  });
});
