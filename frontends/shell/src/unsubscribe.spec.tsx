import { API, MAIL_PREFERENCE_MESSAGES } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, UiProvider } from '@termpaste/ui';
import { installFakeWebSocket, stubApi, stubFetch, writes } from '@termpaste/ui/testing';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { AppRoutes } from './routes';

installFakeWebSocket();

const TOKEN = '7.reply.abc';
const ADDRESS = `${API.unsubscribe}?token=${encodeURIComponent(TOKEN)}`;
const described = {
  username: 'neo',
  scope: 'reply',
  what: 'e-mails about: replies to you',
  unsubscribed: false,
};

function renderAt(path: string, user: ReturnType<typeof sampleCurrentUser> | null) {
  const queryClient = createQueryClient();
  queryClient.setQueryData([API.currentUser], user);
  queryClient.setQueryData([API.site], { productName: 'Termpaste', requireVerifiedEmail: true });
  queryClient.setQueryData([API.notificationsUnreadCount], 0);
  queryClient.setQueryData(['remote-screens', 'messaging'], { ChatPopover: () => null });
  render(
    <UiProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </UiProvider>,
  );
}

describe('/unsubscribe', () => {
  it('says what the link turns off, for a visitor, and turns it off once confirmed', async () => {
    const calls = stubApi(
      (url) => (url === ADDRESS ? described : undefined),
      () => ({ body: { ...described, unsubscribed: true } }),
    );
    renderAt(`/unsubscribe?token=${TOKEN}`, null);
    expect(await screen.findByText(/Stop e-mails about: replies to you for/)).toHaveTextContent(
      'Stop e-mails about: replies to you for neo?',
    );
    expect(writes(calls)).toEqual([]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'UNSUBSCRIBE' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      '[OK] No more e-mails about: replies to you for neo.',
    );
    expect(writes(calls)).toEqual([{ method: 'POST', url: ADDRESS, body: undefined }]);
    expect(screen.getByRole('link', { name: 'All your e-mail preferences' })).toHaveAttribute(
      'href',
      '/settings/notifications',
    );
  });

  it('says so when it is off already, signed in too', async () => {
    const calls = stubApi((url) => (url === ADDRESS ? { ...described, unsubscribed: true } : undefined));
    renderAt(`/unsubscribe?token=${TOKEN}`, sampleCurrentUser());
    expect(await screen.findByText(/No more e-mails about: replies to you/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'UNSUBSCRIBE' })).toBeNull();
    expect(writes(calls)).toEqual([]);
  });

  it("shows the server's reason for a bad link", async () => {
    stubFetch(() => ({
      status: 400,
      body: { statusCode: 400, message: MAIL_PREFERENCE_MESSAGES.tokenInvalid },
    }));
    renderAt(`/unsubscribe?token=${TOKEN}`, null);
    expect(await screen.findByRole('status')).toHaveTextContent(
      `[FAIL] ${MAIL_PREFERENCE_MESSAGES.tokenInvalid}`,
    );
  });

  it('a link without a token says so', async () => {
    stubApi(() => undefined);
    renderAt('/unsubscribe', null);
    expect(await screen.findByRole('status')).toHaveTextContent(MAIL_PREFERENCE_MESSAGES.tokenMissing);
  });
});
