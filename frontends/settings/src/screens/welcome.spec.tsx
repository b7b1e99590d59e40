import { API, SSO_MESSAGES, SSO_SCREEN_TEXTS, type CurrentUser } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { act, screen } from '@testing-library/react';
import {
  deferred,
  errorBody,
  expectLoginRedirect,
  expectToast,
  reads,
  renderScreen,
  stubFetch,
  writes,
  type FetchAnswer,
  type FetchCall,
} from '../testing';
import { USERNAME_RULES, WelcomeScreen } from './welcome';

/** The member a first provider sign-in made: the name proposed from the provider's preferred username. */
const proposed = (overrides: Partial<CurrentUser> = {}) =>
  sampleCurrentUser({ id: 12, username: 'trinity_2', ...overrides });

/**
 * The API as a test plays it: GET /api/auth/user answers `state.user`; POST /api/auth/sso/username goes
 * to `onChoose` (by default it renames the member).
 */
function server(
  state: { user: CurrentUser },
  onChoose?: (call: FetchCall) => FetchAnswer | Promise<FetchAnswer>,
) {
  return stubFetch((call) => {
    if (call.method === 'GET' && call.url === API.currentUser) return { body: state.user };
    if (call.method === 'POST' && call.url === API.ssoUsername) {
      if (onChoose) return onChoose(call);
      state.user = { ...state.user, username: (call.body as { username: string }).username };
      return { body: state.user };
    }
    return { status: 404, body: 'not stubbed' };
  });
}

function renderWelcome(user = proposed()) {
  return renderScreen(<WelcomeScreen />, { path: '/welcome', user });
}

const field = () => screen.getByRole('textbox', { name: 'Username' });
const keep = () => screen.getByRole('button', { name: /^KEEP/ });
const continueButton = () => screen.getByRole('button', { name: /^(CONTINUE|SAVING\.\.\.)$/ });

describe('the welcome screen after a first provider sign-in (/welcome)', () => {
  it('asks to choose a username, prefilled with the proposed one, and states the rules', () => {
    server({ user: proposed() });
    renderWelcome();
    // The screen's one h1 is its window's title; the welcome under it (an h2), in that order.
    const headings = screen.getAllByRole('heading');
    expect(headings.map((h) => [h.tagName, h.textContent])).toEqual([
      ['H1', 'WELCOME'],
      ['H2', SSO_SCREEN_TEXTS.welcomeTitle],
    ]);
    expect(screen.getByText(SSO_SCREEN_TEXTS.welcomeIntro)).toBeInTheDocument();
    expect(field()).toHaveValue('trinity_2');
    expect(field()).toHaveAccessibleDescription(USERNAME_RULES);
    expect(USERNAME_RULES).toBe(
      '3–32 characters: letters, digits, _ and -. Unique, whatever the letter case.',
    );
    expect(keep()).toHaveTextContent('KEEP trinity_2');
    expect(continueButton()).toBeEnabled();
  });

  it('CONTINUE sends the new name (trimmed), reads the member again, toasts and goes home', async () => {
    const state = { user: proposed() };
    const calls = server(state);
    const { user, client } = renderWelcome();
    await user.clear(field());
    await user.type(field(), '  the-one  ');
    await user.click(continueButton());

    expect(await screen.findByRole('status', { name: 'location' })).toHaveTextContent(/^\/$/);
    await expectToast(SSO_SCREEN_TEXTS.usernameSaved, SSO_SCREEN_TEXTS.usernameSavedText('the-one'));
    expect(writes(calls)).toEqual([{ method: 'POST', url: API.ssoUsername, body: { username: 'the-one' } }]);
    expect(reads(calls, API.currentUser)).toHaveLength(1);
    expect(client.getQueryData<CurrentUser>([API.currentUser])?.username).toBe('the-one');
  });

  it('KEEP sends the proposed name as it is, whatever the field says', async () => {
    const calls = server({ user: proposed() });
    const { user } = renderWelcome();
    await user.clear(field());
    await user.type(field(), 'x');
    await user.click(keep());
    expect(await screen.findByRole('status', { name: 'location' })).toHaveTextContent(/^\/$/);
    expect(writes(calls)).toEqual([
      { method: 'POST', url: API.ssoUsername, body: { username: 'trinity_2' } },
    ]);
    await expectToast(SSO_SCREEN_TEXTS.usernameSaved, SSO_SCREEN_TEXTS.usernameSavedText('trinity_2'));
  });

  it('disables the form while the name is being saved', async () => {
    const answer = deferred();
    server({ user: proposed() }, () => answer.promise);
    const { user } = renderWelcome();
    await user.type(field(), 'x');
    await user.click(continueButton());
    expect(continueButton()).toHaveTextContent('SAVING...');
    expect(continueButton()).toHaveAttribute('aria-busy', 'true');
    expect(keep()).not.toHaveAttribute('aria-busy');
    expect(continueButton()).toBeDisabled();
    expect(keep()).toBeDisabled();
    expect(field()).toBeDisabled();
    await act(async () => answer.resolve({ body: proposed() }));
    expect(await screen.findByRole('status', { name: 'location' })).toHaveTextContent(/^\/$/);
  });

  it.each([
    ['too short', 'ab', 'Username must be at least 3 characters'],
    ['too long', 'a'.repeat(33), 'Username must be at most 32 characters'],
    ['with a space', 'neo one', 'Username may contain only letters, digits, _ and -'],
    ['with a dot', 'neo.one', 'Username may contain only letters, digits, _ and -'],
    ['blank', '   ', 'Username must be at least 3 characters'],
  ])('refuses a name %s with the rule of the contracts, and sends nothing', async (_, name, message) => {
    const calls = server({ user: proposed() });
    const { user } = renderWelcome();
    await user.clear(field());
    await user.type(field(), name);
    await user.click(continueButton());
    await expectToast('Validation Error', message);
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(field()).toHaveAccessibleDescription(`${message} ${USERNAME_RULES}`);
    expect(writes(calls)).toEqual([]);
    expect(screen.queryByRole('status', { name: 'location' })).not.toBeInTheDocument();

    // Typing clears the error.
    await user.type(field(), 'x');
    expect(field()).not.toHaveAttribute('aria-invalid');
  });

  it('shows the 409 of a name already chosen, and stays', async () => {
    server({ user: proposed() }, () => ({
      status: 409,
      body: errorBody(409, SSO_MESSAGES.usernameAlreadyChosen),
    }));
    const { user } = renderWelcome();
    await user.click(continueButton());
    await expectToast('Username Not Saved', SSO_MESSAGES.usernameAlreadyChosen);
    expect(screen.queryByRole('status', { name: 'location' })).not.toBeInTheDocument();
    expect(continueButton()).toBeEnabled();
    expect(field()).toHaveValue('trinity_2');
  });

  it("shows the server's message for a name taken by another member", async () => {
    server({ user: proposed() }, () => ({ status: 409, body: errorBody(409, 'Username is already taken') }));
    const { user } = renderWelcome();
    await user.clear(field());
    await user.type(field(), 'morpheus');
    await user.click(continueButton());
    await expectToast('Username Not Saved', 'Username is already taken');
    expect(field()).toHaveValue('morpheus');
  });

  it('says Failed to save your username when the server gives no message', async () => {
    server({ user: proposed() }, () => ({ status: 500, body: '' }));
    const { user } = renderWelcome();
    await user.click(keep());
    await expectToast('Username Not Saved', SSO_SCREEN_TEXTS.usernameFailed);
  });

  it('sends the member to sign in again when the session is gone', async () => {
    server({ user: proposed() }, () => ({ status: 401, body: errorBody(401, 'Unauthorized') }));
    const { user } = renderWelcome();
    await user.click(continueButton());
    await expectLoginRedirect();
  });
});
