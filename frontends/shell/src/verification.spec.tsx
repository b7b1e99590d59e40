import { API, OWNER_SETUP_MESSAGES, VERIFY_MESSAGES } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, UiProvider } from '@termpaste/ui';
import { installFakeWebSocket, stubApi, writes } from '@termpaste/ui/testing';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { AppRoutes } from './routes';

installFakeWebSocket();

function renderAt(
  path: string,
  user: ReturnType<typeof sampleCurrentUser> | null,
  requireVerifiedEmail = true,
) {
  const queryClient = createQueryClient();
  queryClient.setQueryData([API.currentUser], user);
  queryClient.setQueryData([API.site], { productName: 'Termpaste', requireVerifiedEmail });
  queryClient.setQueryData([API.notificationsUnreadCount], 0);
  queryClient.setQueryData(['remote-screens', 'forum'], { Home: () => <p>home</p> });
  queryClient.setQueryData(['remote-screens', 'messaging'], { ChatPopover: () => null });
  render(
    <UiProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </UiProvider>,
  );
  return queryClient;
}

const unverified = sampleCurrentUser({ emailVerified: false, email: 'neo@zion.example' });

describe('the unverified banner', () => {
  it('tells an unverified member what waits for the link, and RE-SEND asks for a new one', async () => {
    const calls = stubApi(
      () => undefined,
      () => ({ body: { message: VERIFY_MESSAGES.linkSent } }),
    );
    renderAt('/', unverified);
    const banner = screen.getByRole('status', { name: 'E-mail address not verified' });
    expect(banner).toHaveTextContent('[!] UNVERIFIED');
    expect(banner).toHaveTextContent('neo@zion.example');
    expect(banner).toHaveTextContent('you can read, but not post, reply, vote, message or chat');
    await userEvent.setup().click(screen.getByRole('button', { name: 'RE-SEND' }));
    expect(await screen.findByText(VERIFY_MESSAGES.linkSent)).toBeInTheDocument();
    expect(writes(calls)).toEqual([{ method: 'POST', url: API.verifyEmailResend, body: undefined }]);
  });

  it("shows the server's 429 text when re-sent too often", async () => {
    stubApi(
      () => undefined,
      () => ({ status: 429, body: { statusCode: 429, message: VERIFY_MESSAGES.resendTooMany(3599) } }),
    );
    renderAt('/', unverified);
    await userEvent.setup().click(screen.getByRole('button', { name: 'RE-SEND' }));
    expect(await screen.findByText(VERIFY_MESSAGES.resendTooMany(3599))).toBeInTheDocument();
  });

  it('is not shown to a verified member, nor where verification is not required', () => {
    renderAt('/', sampleCurrentUser());
    expect(screen.getByText('home')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'RE-SEND' })).not.toBeInTheDocument();
  });

  it('is not shown with REQUIRE_VERIFIED_EMAIL=false', () => {
    renderAt('/', unverified, false);
    expect(screen.queryByRole('button', { name: 'RE-SEND' })).not.toBeInTheDocument();
  });
});

describe('/verify-email', () => {
  it("sends the link's token once and says the address is verified (visitor)", async () => {
    const calls = stubApi(
      () => undefined,
      () => ({ body: { message: VERIFY_MESSAGES.verified } }),
    );
    renderAt('/verify-email?token=abc123', null);
    expect(await screen.findByText(VERIFY_MESSAGES.verified)).toBeInTheDocument();
    expect(screen.getByText('[OK]', { exact: false })).toBeInTheDocument();
    expect(writes(calls)).toEqual([{ method: 'POST', url: API.verifyEmail, body: { token: 'abc123' } }]);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it("shows the server's refusal for a used or expired link (member)", async () => {
    stubApi(
      (url) => (url === API.currentUser ? unverified : undefined),
      () => ({ status: 400, body: { statusCode: 400, message: VERIFY_MESSAGES.invalidToken } }),
    );
    renderAt('/verify-email?token=used', unverified);
    expect(await screen.findByText(VERIFY_MESSAGES.invalidToken)).toBeInTheDocument();
    expect(screen.getByText('[FAIL]', { exact: false })).toBeInTheDocument();
    expect(screen.getByText(/RE-SEND a link from the banner/)).toBeInTheDocument();
  });

  it('says so when the link has no token, asking nothing of the server', () => {
    const calls = stubApi(() => undefined);
    renderAt('/verify-email', null);
    expect(screen.getByText(/the link has no token/)).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);
  });
});

describe('/setup', () => {
  it('sends the setup code and reports the claim', async () => {
    const calls = stubApi(
      (url) => (url === API.currentUser ? sampleCurrentUser({ isOwner: true, isAdmin: true }) : undefined),
      () => ({ body: sampleCurrentUser({ isOwner: true, isAdmin: true }) }),
    );
    renderAt('/setup', sampleCurrentUser());
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Setup code'), 'abcd-efgh-jkmn-pqrs');
    await user.click(screen.getByRole('button', { name: 'CLAIM OWNERSHIP' }));
    expect(await screen.findByText(OWNER_SETUP_MESSAGES.claimed)).toBeInTheDocument();
    expect(writes(calls)).toEqual([
      { method: 'POST', url: API.ownerClaim, body: { code: 'abcd-efgh-jkmn-pqrs' } },
    ]);
  });

  it("shows the server's refusal of a wrong code", async () => {
    stubApi(
      () => undefined,
      () => ({ status: 400, body: { statusCode: 400, message: OWNER_SETUP_MESSAGES.invalidCode } }),
    );
    renderAt('/setup', sampleCurrentUser());
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Setup code'), 'nope');
    await user.click(screen.getByRole('button', { name: 'CLAIM OWNERSHIP' }));
    expect(await screen.findByText(OWNER_SETUP_MESSAGES.invalidCode)).toBeInTheDocument();
  });
});

describe('the silenced banner', () => {
  it('tells a silenced member until when and why, with the way to support', () => {
    stubApi(() => undefined);
    renderAt(
      '/',
      sampleCurrentUser({ silencedUntil: '2099-03-04T05:06:00.000Z', silenceReason: 'Cool off' }),
    );
    const banner = screen.getByRole('status', { name: 'Account silenced' });
    expect(banner).toHaveTextContent(
      '[!] SILENCED until 2099-03-04 05:06 UTC: you can read and contact support, nothing else. Reason: Cool off',
    );
    expect(screen.getByRole('link', { name: 'contact support' })).toHaveAttribute('href', '/support');
  });

  it('is not shown once the silence has ended, nor to anyone else', () => {
    stubApi(() => undefined);
    renderAt('/', sampleCurrentUser({ silencedUntil: '2001-01-01T00:00:00.000Z', silenceReason: 'old' }));
    expect(screen.queryByRole('status', { name: 'Account silenced' })).not.toBeInTheDocument();
  });
});
