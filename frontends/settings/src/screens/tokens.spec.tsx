import {
  TOKEN_MESSAGES,
  TOKEN_SCOPE_DESCRIPTIONS,
  TOKEN_SCOPES,
  type AccessToken,
  type CreatedAccessToken,
} from '@termpaste/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import {
  deferred,
  errorBody,
  expectLoginRedirect,
  expectToast,
  minutesAgo,
  reads,
  renderScreen,
  stubClipboard,
  stubFetch,
  writes,
  type FetchAnswer,
  type FetchCall,
} from '../testing';
import { curlLine, TokensScreen } from './tokens';

const SECRET = 'tp_' + 'aB3'.repeat(13) + 'x';

function sampleToken(overrides: Partial<AccessToken> = {}): AccessToken {
  return {
    id: 3,
    name: 'laptop',
    scopes: ['pastes:write', 'read'],
    createdAt: '2026-11-20T12:00:00.000Z',
    lastUsedAt: null,
    expiresAt: null,
    revokedAt: null,
    revokedReason: null,
    ...overrides,
  };
}

/**
 * The tokens API as a test plays it: GET answers `state.tokens` (or `state.list` when set), and every
 * write goes to `onWrite`, which may change `state.tokens`.
 */
function server(
  state: { tokens: AccessToken[]; list?: FetchAnswer },
  onWrite: (call: FetchCall) => FetchAnswer | Promise<FetchAnswer> = () => ({}),
) {
  return stubFetch((call) => {
    if (call.method === 'GET' && call.url === '/api/user/tokens') return state.list ?? { body: state.tokens };
    if (call.method === 'GET') return { status: 404, body: 'not stubbed' };
    return onWrite(call);
  });
}

function renderTokens() {
  return renderScreen(<TokensScreen />, { path: '/settings/tokens' });
}

const nameField = () => screen.getByRole('textbox', { name: 'Token name' });
const expiry = () => screen.getByRole('combobox', { name: 'Expires after' });
const scope = (name: string) => screen.getByRole('checkbox', { name: new RegExp(`^${name} `) });
const createButton = () => screen.getByRole('button', { name: /^(CREATE TOKEN|CREATING\.\.\.)$/ });
const tokenList = () => screen.getByRole('region', { name: 'YOUR TOKENS' });
const dialogClosed = () => waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

/** POST /api/user/tokens answers the new token, which the next GET lists. */
function creating(state: { tokens: AccessToken[] }, made: Partial<CreatedAccessToken> = {}) {
  return (call: FetchCall): FetchAnswer => {
    const body = call.body as { name: string; scopes: AccessToken['scopes']; expiresInDays: number | null };
    const token = sampleToken({
      id: 9,
      name: body.name,
      scopes: body.scopes,
      createdAt: new Date().toISOString(),
      expiresAt:
        body.expiresInDays === null
          ? null
          : new Date(Date.now() + body.expiresInDays * 86_400_000).toISOString(),
      ...made,
    });
    state.tokens = [token, ...state.tokens];
    return { status: 201, body: { ...token, token: SECRET } };
  };
}

describe('access tokens (/settings/tokens)', () => {
  it('shows an empty list and a form with 30 days and both scopes chosen', async () => {
    const calls = server({ tokens: [] });
    renderTokens();
    expect(screen.getByRole('heading', { name: 'ACCESS TOKENS' })).toBeInTheDocument();
    expect(
      await within(tokenList()).findByText('No tokens yet. Create one above to paste from your terminal.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('token-count')).toHaveTextContent('0/20 active');
    expect(reads(calls, '/api/user/tokens')).toHaveLength(1);

    expect(nameField()).toHaveValue('');
    expect(nameField()).toHaveAttribute('maxLength', '64');
    expect(screen.getByTestId('token-name-counter')).toHaveTextContent('0/64');
    expect(expiry()).toHaveDisplayValue('30 days');
    expect(
      within(expiry())
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['7 days', '30 days', '90 days', '1 year', 'No expiry']);
    expect(scope('pastes:write')).toBeChecked();
    expect(scope('read')).toBeChecked();
    // Private reads only when asked for, each scope with its one line.
    expect(scope('private:read')).not.toBeChecked();
    for (const name of TOKEN_SCOPES) {
      expect(scope(name).closest('label')).toHaveTextContent(TOKEN_SCOPE_DESCRIPTIONS[name]);
    }
    expect(screen.getByRole('group', { name: 'Scopes' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'New token' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'PROFILE SETTINGS' })).toHaveAttribute('href', '/settings');
  });

  it('creates a token with the defaults: the trimmed name, both scopes, 30 days', async () => {
    const state = { tokens: [] as AccessToken[] };
    const calls = server(state, creating(state));
    const { user } = renderTokens();
    await user.type(nameField(), '  laptop  ');
    await user.click(createButton());
    await expectToast('Token created', 'Copy it now: it will not be shown again');
    expect(writes(calls)).toEqual([
      {
        method: 'POST',
        url: '/api/user/tokens',
        body: { name: 'laptop', scopes: ['pastes:write', 'read'], expiresInDays: 30 },
      },
    ]);
  });

  it('sends the chosen expiry and scopes, reads CREATING... meanwhile, then shows the token once', async () => {
    const state = { tokens: [sampleToken({ id: 2, name: 'old one' })] };
    const answer = deferred();
    const calls = server(state, (call) => answer.promise.then(() => creating(state)(call)));
    const { user } = renderTokens();
    await within(tokenList()).findByRole('listitem', { name: 'old one' });

    await user.type(nameField(), 'ci runner');
    await user.selectOptions(expiry(), 'No expiry');
    await user.click(scope('read'));
    expect(scope('read')).not.toBeChecked();
    await user.click(createButton());

    await waitFor(() => expect(createButton()).toHaveTextContent('CREATING...'));
    expect(createButton()).toBeDisabled();
    expect(nameField()).toBeDisabled();
    expect(writes(calls)).toEqual([
      {
        method: 'POST',
        url: '/api/user/tokens',
        body: { name: 'ci runner', scopes: ['pastes:write'], expiresInDays: null },
      },
    ]);

    await act(async () => answer.resolve({}));
    const box = await screen.findByRole('region', { name: 'New token' });
    expect(box).toHaveFocus();
    expect(box).toHaveAccessibleDescription(
      'This token will not be shown again. Copy it now and keep it somewhere safe.',
    );
    expect(within(box).getByTestId('new-token')).toHaveTextContent(SECRET);
    expect(within(box).getByText('ci runner')).toBeInTheDocument();
    expect(within(box).getByTestId('curl-line')).toHaveTextContent(
      `curl --data-binary @file.txt -H 'Authorization: Bearer ${SECRET}' 'http://localhost/api/pastes?title=file.txt'`,
    );

    // The form is ready for another; the list shows the new token beside the old one (never its secret).
    expect(nameField()).toHaveValue('');
    expect(createButton()).toHaveTextContent('CREATE TOKEN');
    const item = await within(tokenList()).findByRole('listitem', { name: 'ci runner' });
    expect(
      within(tokenList())
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['ci runner', 'old one']);
    expect(tokenList()).not.toHaveTextContent(SECRET);
    expect(within(item).getByLabelText('Scopes')).toHaveTextContent('pastes:write');
    expect(within(item).getByLabelText('Scopes')).not.toHaveTextContent('read');
    expect(screen.getByTestId('token-count')).toHaveTextContent('2/20 active');
  });

  it('copies the token and the curl line with their COPY buttons', async () => {
    const state = { tokens: [] as AccessToken[] };
    server(state, creating(state));
    const { user } = renderTokens();
    const writeText = stubClipboard(jest.fn(async (_text: string) => undefined));
    await user.type(nameField(), 'laptop');
    await user.click(createButton());
    const box = await screen.findByRole('region', { name: 'New token' });

    await user.click(within(box).getByRole('button', { name: 'COPY' }));
    expect(writeText).toHaveBeenLastCalledWith(SECRET);
    expect(await within(box).findByRole('button', { name: 'COPIED' })).toBeInTheDocument();

    await user.click(within(box).getByRole('button', { name: 'COPY CURL' }));
    expect(writeText).toHaveBeenLastCalledWith(curlLine(SECRET, 'http://localhost'));
    expect(writeText).toHaveBeenCalledTimes(2);
  });

  it('hides the token for good with DONE and gives the focus back to the form', async () => {
    const state = { tokens: [] as AccessToken[] };
    server(state, creating(state));
    const { user } = renderTokens();
    await user.type(nameField(), 'laptop');
    await user.click(createButton());
    const box = await screen.findByRole('region', { name: 'New token' });
    await user.click(within(box).getByRole('button', { name: 'DONE' }));
    expect(screen.queryByRole('region', { name: 'New token' })).not.toBeInTheDocument();
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
    expect(nameField()).toHaveFocus();
  });

  it.each([
    ['an empty name', '', TOKEN_MESSAGES.nameRequired],
    ['a blank name', '   ', TOKEN_MESSAGES.nameRequired],
  ])('refuses %s with the message of the contracts, and sends nothing', async (_, name, message) => {
    const calls = server({ tokens: [] });
    const { user } = renderTokens();
    if (name) await user.type(nameField(), name);
    await user.click(createButton());
    await expectToast('Validation Error', message);
    expect(nameField()).toHaveAttribute('aria-invalid', 'true');
    expect(nameField()).toHaveAccessibleDescription(message);
    expect(writes(calls)).toHaveLength(0);

    // Typing clears the field's error.
    await user.type(nameField(), 'x');
    expect(nameField()).not.toHaveAttribute('aria-invalid');
  });

  it('refuses a token without a scope, and sends nothing', async () => {
    const calls = server({ tokens: [] });
    const { user } = renderTokens();
    await user.type(nameField(), 'laptop');
    await user.click(scope('pastes:write'));
    await user.click(scope('read'));
    await user.click(createButton());
    await expectToast('Validation Error', TOKEN_MESSAGES.scopesRequired);
    expect(screen.getByRole('group', { name: 'Scopes' })).toHaveAccessibleDescription(
      TOKEN_MESSAGES.scopesRequired,
    );
    expect(writes(calls)).toHaveLength(0);
    expect(nameField()).toHaveValue('laptop');
  });

  it("keeps the form and toasts the server's message when it refuses (20 tokens)", async () => {
    const calls = server({ tokens: [] }, () => ({
      status: 409,
      body: errorBody(409, TOKEN_MESSAGES.tooMany),
    }));
    const { user } = renderTokens();
    await user.type(nameField(), 'one more');
    await user.click(createButton());
    await expectToast('Error', TOKEN_MESSAGES.tooMany);
    expect(writes(calls)).toHaveLength(1);
    expect(nameField()).toHaveValue('one more');
    expect(createButton()).toBeEnabled();
    expect(screen.queryByRole('region', { name: 'New token' })).not.toBeInTheDocument();
  });

  it('says Failed to create token when the server gives no message', async () => {
    server({ tokens: [] }, () => ({ status: 500, body: '' }));
    const { user } = renderTokens();
    await user.type(nameField(), 'laptop');
    await user.click(createButton());
    await expectToast('Error', 'Failed to create token');
  });

  it('sends the member to sign in again when the session is gone', async () => {
    server({ tokens: [] }, () => ({ status: 401, body: errorBody(401, 'Unauthorized') }));
    const { user } = renderTokens();
    await user.type(nameField(), 'laptop');
    await user.click(createButton());
    await expectLoginRedirect();
  });

  it('lists name, scopes, created, last used and expiry ("never" where there is none)', async () => {
    server({
      tokens: [
        sampleToken({
          id: 5,
          name: 'ci',
          scopes: ['pastes:write'],
          lastUsedAt: minutesAgo(5),
          expiresAt: '2027-01-15T12:00:00.000Z',
        }),
        sampleToken({ id: 4, name: 'laptop' }),
        sampleToken({ id: 1, name: 'stale', expiresAt: '2026-01-01T12:00:00.000Z' }),
      ],
    });
    renderTokens();
    const ci = await within(tokenList()).findByRole('listitem', { name: 'ci' });
    expect(within(ci).getByLabelText('Scopes')).toHaveTextContent(/^pastes:write$/);
    expect(within(ci).getByText('Created').nextSibling).toHaveTextContent('Nov 20, 2026');
    expect(within(ci).getByText('Last used').nextSibling).toHaveTextContent('5 minutes ago');
    expect(within(ci).getByText('Expires').nextSibling).toHaveTextContent('Jan 15, 2027');
    expect(within(ci).queryByText('expired')).not.toBeInTheDocument();

    const laptop = within(tokenList()).getByRole('listitem', { name: 'laptop' });
    expect(within(laptop).getByLabelText('Scopes')).toHaveTextContent('pastes:writeread');
    expect(within(laptop).getByText('Last used').nextSibling).toHaveTextContent('never');
    expect(within(laptop).getByText('Expires').nextSibling).toHaveTextContent('never');
    expect(within(laptop).getByRole('button', { name: 'REVOKE laptop' })).toBeEnabled();

    // An expired token is still listed (it can be revoked) but no longer counts as active.
    const stale = within(tokenList()).getByRole('listitem', { name: 'stale' });
    expect(within(stale).getByText('expired')).toBeInTheDocument();
    expect(screen.getByTestId('token-count')).toHaveTextContent('2/20 active');
  });

  it('lists a revoked token with when and why, not counted as active and with no REVOKE', async () => {
    server({
      tokens: [
        sampleToken({ id: 6, name: 'live' }),
        sampleToken({
          id: 5,
          name: 'old laptop',
          revokedAt: '2026-11-21T08:00:00.000Z',
          revokedReason: 'password reset',
        }),
        sampleToken({ id: 4, name: 'banned', revokedAt: '2026-11-22T08:00:00.000Z', revokedReason: 'ban' }),
      ],
    });
    renderTokens();
    const old = await within(tokenList()).findByRole('listitem', { name: 'old laptop' });
    expect(within(old).getByTestId('token-revoked')).toHaveTextContent('revokedpassword reset');
    expect(within(old).getByText('Revoked').nextSibling).toHaveTextContent('Nov 21, 2026');
    expect(within(old).queryByText('Expires')).not.toBeInTheDocument();
    expect(within(old).queryByRole('button', { name: /REVOKE/ })).not.toBeInTheDocument();
    const banned = within(tokenList()).getByRole('listitem', { name: 'banned' });
    expect(within(banned).getByTestId('token-revoked')).toHaveTextContent('revokedban');
    expect(screen.getByTestId('token-count')).toHaveTextContent('1/20 active');
  });

  it('says so when the list cannot be loaded', async () => {
    server({ tokens: [], list: { status: 500, body: errorBody(500, 'Internal server error') } });
    renderTokens();
    expect(
      await within(tokenList()).findByText('Could not load your tokens. Try again in a moment.'),
    ).toBeInTheDocument();
  });

  it('revokes a token only after the confirmation, never after CANCEL', async () => {
    const state = { tokens: [sampleToken({ id: 4, name: 'laptop' }), sampleToken({ id: 3, name: 'ci' })] };
    const calls = server(state, (call) => {
      state.tokens = state.tokens.map((token) =>
        `/api/user/tokens/${token.id}` === call.url
          ? { ...token, revokedAt: new Date().toISOString(), revokedReason: 'by you' }
          : token,
      );
      return { status: 204, body: '' };
    });
    const { user } = renderTokens();
    const laptop = await within(tokenList()).findByRole('listitem', { name: 'laptop' });

    await user.click(within(laptop).getByRole('button', { name: 'REVOKE laptop' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Revoke this token?' });
    expect(dialog).toHaveTextContent('"laptop" stops working at once, everywhere it is used.');
    await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
    await dialogClosed();
    expect(writes(calls)).toHaveLength(0);
    expect(within(laptop).getByRole('button', { name: 'REVOKE laptop' })).toHaveFocus();

    await user.click(within(laptop).getByRole('button', { name: 'REVOKE laptop' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Revoke this token?' });
    await user.click(within(dialog).getByRole('button', { name: 'REVOKE' }));

    await expectToast('Token revoked', 'laptop');
    expect(writes(calls)).toEqual([{ method: 'DELETE', url: '/api/user/tokens/4', body: undefined }]);
    // Still listed, as revoked by you, with nothing left to revoke.
    await waitFor(() =>
      expect(within(laptop).getByTestId('token-revoked')).toHaveTextContent('revokedby you'),
    );
    expect(within(laptop).queryByRole('button', { name: 'REVOKE laptop' })).not.toBeInTheDocument();
    expect(within(tokenList()).getByRole('listitem', { name: 'ci' })).toBeInTheDocument();
    expect(screen.getByTestId('token-count')).toHaveTextContent('1/20 active');
  });

  it("toasts the server's message when a revoke fails, and keeps the token listed", async () => {
    const calls = server({ tokens: [sampleToken({ id: 4, name: 'laptop' })] }, () => ({
      status: 404,
      body: errorBody(404, TOKEN_MESSAGES.notFound),
    }));
    const { user } = renderTokens();
    const laptop = await within(tokenList()).findByRole('listitem', { name: 'laptop' });
    await user.click(within(laptop).getByRole('button', { name: 'REVOKE laptop' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke this token?' });
    await user.click(within(dialog).getByRole('button', { name: 'REVOKE' }));
    await expectToast('Error', TOKEN_MESSAGES.notFound);
    expect(writes(calls)).toHaveLength(1);
    expect(within(tokenList()).getByRole('listitem', { name: 'laptop' })).toBeInTheDocument();
  });
});
