import {
  API,
  SSO_ERROR_CODES,
  SSO_ERROR_MESSAGES,
  SSO_SCREEN_TEXTS,
  type SignInProvider,
  type Site,
} from '@termpaste/contracts';
import { pending, renderScreen, stubFetch, type FetchAnswer } from '@termpaste/ui/testing';
import { screen, within } from '@testing-library/react';
import { LoginPage } from './login';
import { RegisterPage } from './register';

const KEYCLOAK: SignInProvider = { id: 'keycloak', name: 'Keycloak', kind: 'oidc' };
const GITHUB: SignInProvider = { id: 'github', name: 'GitHub', kind: 'github' };

function site(overrides: Partial<Site> = {}): Site {
  return {
    productName: 'Termpaste',
    requireVerifiedEmail: true,
    localLogin: true,
    signInProviders: [KEYCLOAK, GITHUB],
    ...overrides,
  };
}

/** GET /api/site answers `answer` (a Site, or a whole FetchAnswer); POST /api/login signs in. */
function server(answer: Site | FetchAnswer | 'pending' = site()) {
  return stubFetch((call) => {
    if (call.url === API.site) {
      if (answer === 'pending') return pending();
      return 'productName' in answer ? { body: answer } : answer;
    }
    if (call.method === 'POST' && call.url === API.login) return { body: {} };
    if (call.url === API.ssoRefusal) return { body: { message: refusal } };
    return { status: 404, body: 'not stubbed' };
  });
}

/** What GET API.ssoRefusal answers (the session's words for a refused provider sign-in). */
let refusal: string | null = null;
beforeEach(() => {
  refusal = null;
});

const renderLogin = (path = '/login') => renderScreen(<LoginPage />, { path, user: null });
const renderRegister = (path = '/register') => renderScreen(<RegisterPage />, { path, user: null });

const providerLink = (name: string) => screen.getByRole('link', { name: `Continue with ${name}` });
const providerLinks = () => screen.queryAllByRole('link', { name: /^Continue with / });
const divider = () => screen.queryByText('or');

describe('/login with sign-in providers', () => {
  it('shows the form, then "── or ──", then one link per provider to its start', async () => {
    server();
    renderLogin();
    const keycloak = await screen.findByRole('link', { name: 'Continue with Keycloak' });
    expect(keycloak).toHaveAttribute('href', '/api/auth/sso/keycloak?intent=login&next=%2F');
    expect(providerLink('GitHub')).toHaveAttribute('href', '/api/auth/sso/github?intent=login&next=%2F');
    expect(providerLinks()).toHaveLength(2);
    expect(
      within(screen.getByRole('list', { name: 'Sign-in providers' })).getAllByRole('listitem'),
    ).toHaveLength(2);

    // Under the form, with the divider between.
    const login = screen.getByRole('button', { name: 'LOGIN' });
    expect(login.compareDocumentPosition(divider()!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(divider()!.compareDocumentPosition(keycloak) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(screen.getByRole('link', { name: 'No account? Register' })).toHaveAttribute('href', '/register');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("carries the page's own next to the providers, and to the password sign-in", async () => {
    server();
    const { user } = renderLogin('/login?next=%2Fthread%2F5%3Fpage%3D2');
    expect(await screen.findByRole('link', { name: 'Continue with Keycloak' })).toHaveAttribute(
      'href',
      '/api/auth/sso/keycloak?intent=login&next=%2Fthread%2F5%3Fpage%3D2',
    );
    await user.type(screen.getByLabelText('Username or email'), 'neo');
    await user.type(screen.getByLabelText('Password'), 'password1');
    await user.click(screen.getByRole('button', { name: 'LOGIN' }));
    expect(await screen.findByRole('status', { name: 'location' })).toHaveTextContent('/thread/5?page=2');
  });

  it.each([
    ['another site', 'https://evil.example/'],
    ['a protocol-relative address', '//evil.example/'],
  ])('never carries a next to %s: home instead', async (_, next) => {
    server();
    renderLogin(`/login?next=${encodeURIComponent(next)}`);
    expect(await screen.findByRole('link', { name: 'Continue with GitHub' })).toHaveAttribute(
      'href',
      '/api/auth/sso/github?intent=login&next=%2F',
    );
  });

  it('shows no provider button nor divider when none is configured', async () => {
    server(site({ signInProviders: [] }));
    renderLogin();
    expect(await screen.findByRole('button', { name: 'LOGIN' })).toBeInTheDocument();
    expect(providerLinks()).toHaveLength(0);
    expect(divider()).not.toBeInTheDocument();
  });

  it('falls back to the password form alone when the site cannot be read', async () => {
    const calls = server({ status: 500, body: 'boom' });
    renderLogin();
    expect(await screen.findByRole('button', { name: 'LOGIN' })).toBeInTheDocument();
    expect(providerLinks()).toHaveLength(0);
    // Read again when the form's own reader mounts, at most: never in a loop.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(screen.getByRole('button', { name: 'LOGIN' })).toBeInTheDocument();
  });

  it('shows neither the form nor the buttons until the site is read (no flash of the password form)', () => {
    server('pending');
    renderLogin();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(providerLinks()).toHaveLength(0);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  });

  it('with LOCAL_LOGIN=off shows the providers only: no form, no forgot password, no register', async () => {
    server(site({ localLogin: false }));
    renderLogin();
    expect(await screen.findByRole('link', { name: 'Continue with Keycloak' })).toBeInTheDocument();
    expect(providerLinks()).toHaveLength(2);
    expect(screen.queryByLabelText('Username or email')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'LOGIN' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Register/ })).not.toBeInTheDocument();
    expect(divider()).not.toBeInTheDocument();
  });

  it('with LOCAL_LOGIN=off and no provider says sign-in is unavailable', async () => {
    server(site({ localLogin: false, signInProviders: [] }));
    renderLogin();
    expect(await screen.findByText(SSO_SCREEN_TEXTS.signInUnavailable)).toBeInTheDocument();
    expect(providerLinks()).toHaveLength(0);
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it.each(SSO_ERROR_CODES)('shows ?sso_error=%s as an alert with its message', async (code) => {
    server();
    renderLogin(`/login?sso_error=${code}`);
    expect(screen.getByRole('alert')).toHaveTextContent(SSO_ERROR_MESSAGES[code]);
    // The way to try again is right there.
    expect(await screen.findByRole('link', { name: 'Continue with Keycloak' })).toBeInTheDocument();
  });

  it("shows a ban's end and reason the server kept in the session, after the plain words", async () => {
    refusal = 'Your account is suspended until 2026-05-01 14:00 UTC. Reason: spam links';
    server();
    renderLogin('/login?sso_error=banned');
    expect(screen.getByRole('alert')).toHaveTextContent(SSO_ERROR_MESSAGES.banned);
    expect(await screen.findByText(refusal)).toHaveAttribute('role', 'alert');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('keeps the plain words for a ban when the session holds none', async () => {
    const calls = server();
    renderLogin('/login?sso_error=banned');
    expect(await screen.findByRole('link', { name: 'Continue with Keycloak' })).toBeInTheDocument();
    expect(calls.some((call) => call.url === API.ssoRefusal)).toBe(true);
    expect(screen.getByRole('alert')).toHaveTextContent(SSO_ERROR_MESSAGES.banned);
  });

  it('asks the server for words only after a ban', async () => {
    const calls = server();
    renderLogin('/login?sso_error=email_taken');
    expect(await screen.findByRole('link', { name: 'Continue with Keycloak' })).toBeInTheDocument();
    expect(calls.some((call) => call.url === API.ssoRefusal)).toBe(false);
  });

  it('shows a generic line for a code it does not know', () => {
    server();
    renderLogin('/login?sso_error=quantum_flux');
    expect(screen.getByRole('alert')).toHaveTextContent(SSO_SCREEN_TEXTS.unknownError);
    expect(screen.getByRole('alert')).not.toHaveTextContent('quantum_flux');
  });

  it('shows the error under LOCAL_LOGIN=off too', async () => {
    server(site({ localLogin: false }));
    renderLogin('/login?sso_error=local_account_required');
    expect(screen.getByRole('alert')).toHaveTextContent(SSO_ERROR_MESSAGES.local_account_required);
    expect(await screen.findByRole('link', { name: 'Continue with GitHub' })).toBeInTheDocument();
  });
});

describe('/register with sign-in providers', () => {
  it('shows the sign-up form, then the providers under it', async () => {
    server();
    renderRegister();
    const keycloak = await screen.findByRole('link', { name: 'Continue with Keycloak' });
    expect(keycloak).toHaveAttribute('href', '/api/auth/sso/keycloak?intent=login&next=%2F');
    const create = screen.getByRole('button', { name: 'CREATE ACCOUNT' });
    expect(create.compareDocumentPosition(keycloak) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(divider()).toBeInTheDocument();
    expect(screen.queryByText(SSO_SCREEN_TEXTS.registerThroughProvider)).not.toBeInTheDocument();
  });

  it('with LOCAL_LOGIN=off says sign-up happens through a provider, and shows no form', async () => {
    server(site({ localLogin: false }));
    renderRegister();
    expect(await screen.findByText(SSO_SCREEN_TEXTS.registerThroughProvider)).toBeInTheDocument();
    expect(providerLinks()).toHaveLength(2);
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'CREATE ACCOUNT' })).not.toBeInTheDocument();
    expect(divider()).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Already registered? Login' })).toHaveAttribute('href', '/login');
  });

  it('with LOCAL_LOGIN=off and no provider says sign-in is unavailable', async () => {
    server(site({ localLogin: false, signInProviders: [] }));
    renderRegister();
    expect(await screen.findByText(SSO_SCREEN_TEXTS.signInUnavailable)).toBeInTheDocument();
    expect(screen.queryByText(SSO_SCREEN_TEXTS.registerThroughProvider)).not.toBeInTheDocument();
    expect(providerLinks()).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'CREATE ACCOUNT' })).not.toBeInTheDocument();
  });
});
