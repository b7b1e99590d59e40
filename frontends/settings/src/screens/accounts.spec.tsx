import {
  API,
  SSO_ERROR_CODES,
  SSO_ERROR_MESSAGES,
  SSO_MESSAGES,
  SSO_SCREEN_TEXTS,
  type Identities,
  type Identity,
  type Site,
} from '@termpaste/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import {
  errorBody,
  expectToast,
  minutesAgo,
  reads,
  renderScreen,
  stubFetch,
  writes,
  type FetchAnswer,
  type FetchCall,
} from '../testing';
import { AccountsScreen, linkHref } from './accounts';

function sampleIdentity(overrides: Partial<Identity> = {}): Identity {
  return {
    id: 4,
    provider: 'keycloak',
    providerName: 'Keycloak',
    email: 'neo@zion.example',
    linkedAt: '2026-11-20T12:00:00.000Z',
    lastUsedAt: null,
    ...overrides,
  };
}

const GITHUB = { id: 'github', name: 'GitHub', kind: 'github' as const };

function identities(overrides: Partial<Identities> = {}): Identities {
  return { identities: [sampleIdentity()], hasPassword: true, available: [GITHUB], ...overrides };
}

/**
 * The identities API as a test plays it: GET answers `state.data` (or `state.list` when set), and a
 * DELETE goes to `onDelete` (by default it removes the identity).
 */
function server(
  state: { data: Identities; list?: FetchAnswer; site?: Site },
  onDelete?: (call: FetchCall) => FetchAnswer | Promise<FetchAnswer>,
) {
  return stubFetch((call) => {
    if (call.method === 'GET' && call.url === API.userIdentities) return state.list ?? { body: state.data };
    if (call.method === 'GET' && call.url === API.site && state.site) return { body: state.site };
    if (call.method === 'DELETE') {
      if (onDelete) return onDelete(call);
      state.data = {
        ...state.data,
        identities: state.data.identities.filter((identity) => API.userIdentity(identity.id) !== call.url),
      };
      return { status: 204, body: '' };
    }
    return { status: 404, body: 'not stubbed' };
  });
}

const renderAccounts = (path = '/settings/accounts') =>
  renderScreen(<AccountsScreen />, { path, route: '/settings/accounts' });

const linkedList = () => screen.getByRole('list', { name: 'Linked accounts' });
const dialogClosed = () => waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

describe('linked accounts (/settings/accounts)', () => {
  it('lists each linked provider with its e-mail, when linked and last used, and UNLINK', async () => {
    const calls = server({
      data: identities({
        identities: [
          sampleIdentity({ id: 4, lastUsedAt: minutesAgo(5) }),
          sampleIdentity({ id: 6, provider: 'github', providerName: 'GitHub', email: null }),
        ],
        available: [],
      }),
    });
    renderAccounts();
    expect(screen.getByRole('heading', { name: 'LINKED ACCOUNTS' })).toBeInTheDocument();
    const keycloak = await within(await screen.findByRole('list', { name: 'Linked accounts' })).findByRole(
      'listitem',
      { name: 'Keycloak' },
    );
    expect(keycloak).toHaveTextContent('neo@zion.example');
    expect(within(keycloak).getByText('Linked').nextSibling).toHaveTextContent('Nov 20, 2026');
    expect(within(keycloak).getByText('Last used').nextSibling).toHaveTextContent('5 minutes ago');
    expect(within(keycloak).getByRole('button', { name: 'UNLINK Keycloak' })).toBeEnabled();

    const github = within(linkedList()).getByRole('listitem', { name: 'GitHub' });
    expect(github).toHaveTextContent('no e-mail shared');
    expect(within(github).getByText('Last used').nextSibling).toHaveTextContent('never');

    expect(screen.queryByRole('region', { name: 'Link a provider' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'PROFILE SETTINGS' })).toHaveAttribute('href', '/settings');
    expect(reads(calls, API.userIdentities)).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers LINK for each available provider, a plain link to its start with intent=link', async () => {
    server({
      data: identities({
        available: [GITHUB, { id: 'gitlab-ce', name: 'GitLab', kind: 'oidc' }],
      }),
    });
    renderAccounts();
    const section = await screen.findByRole('region', { name: 'Link a provider' });
    const links = within(section).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['+LINK GitHub', '/api/auth/sso/github?intent=link'],
      ['+LINK GitLab', '/api/auth/sso/gitlab-ce?intent=link'],
    ]);
    expect(linkHref('github')).toBe('/api/auth/sso/github?intent=link');
  });

  it('says when nothing is linked yet, and still offers the providers', async () => {
    server({ data: identities({ identities: [] }) });
    renderAccounts();
    expect(await screen.findByText(SSO_SCREEN_TEXTS.noIdentities)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Linked accounts' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'LINK GitHub' })).toBeInTheDocument();
  });

  it('says when the site has no provider at all', async () => {
    server({ data: identities({ identities: [], available: [] }) });
    renderAccounts();
    expect(await screen.findByText(SSO_SCREEN_TEXTS.noProviders)).toBeInTheDocument();
    expect(screen.queryByText(SSO_SCREEN_TEXTS.noIdentities)).not.toBeInTheDocument();
  });

  it('shows that the account has a password, with CHANGE PASSWORD', async () => {
    server({ data: identities({ hasPassword: true }) });
    renderAccounts();
    const password = await screen.findByRole('region', { name: 'Password' });
    expect(password).toHaveTextContent('set');
    expect(password).not.toHaveTextContent('not set');
    expect(password).toHaveTextContent(SSO_SCREEN_TEXTS.passwordSet);
    expect(within(password).getByRole('link', { name: 'CHANGE PASSWORD' })).toHaveAttribute(
      'href',
      '/settings/password',
    );
  });

  it('shows that the account has no password, and how to set one', async () => {
    server({ data: identities({ hasPassword: false }) });
    renderAccounts();
    const password = await screen.findByRole('region', { name: 'Password' });
    expect(password).toHaveTextContent('not set');
    expect(password).toHaveTextContent(SSO_SCREEN_TEXTS.passwordNotSet);
    expect(within(password).queryByRole('link')).not.toBeInTheDocument();
  });

  it('says passwords are turned off under LOCAL_LOGIN=off, with no CHANGE PASSWORD', async () => {
    server({
      data: identities({ hasPassword: true }),
      site: { productName: 'Termpaste', requireVerifiedEmail: true, localLogin: false, signInProviders: [] },
    });
    renderAccounts();
    const password = await screen.findByRole('region', { name: 'Password' });
    expect(await within(password).findByText(SSO_MESSAGES.localLoginOff)).toBeInTheDocument();
    expect(password).not.toHaveTextContent(SSO_SCREEN_TEXTS.passwordSet);
    expect(within(password).queryByRole('link')).not.toBeInTheDocument();
  });

  it('says so when the list cannot be loaded', async () => {
    server({ data: identities(), list: { status: 500, body: errorBody(500, 'Internal server error') } });
    renderAccounts();
    expect(await screen.findByText(SSO_SCREEN_TEXTS.identitiesLoadFailed)).toBeInTheDocument();
  });

  it('unlinks only after the confirmation, never after CANCEL', async () => {
    const state = {
      data: identities({
        identities: [
          sampleIdentity({ id: 4 }),
          sampleIdentity({ id: 6, provider: 'github', providerName: 'GitHub' }),
        ],
      }),
    };
    const calls = server(state);
    const { user } = renderAccounts();
    const keycloak = await within(await screen.findByRole('list', { name: 'Linked accounts' })).findByRole(
      'listitem',
      { name: 'Keycloak' },
    );

    await user.click(within(keycloak).getByRole('button', { name: 'UNLINK Keycloak' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Unlink Keycloak?' });
    expect(dialog).toHaveTextContent(
      'You will no longer sign in with Keycloak (neo@zion.example). You can link it again later.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
    await dialogClosed();
    expect(writes(calls)).toHaveLength(0);

    await user.click(within(keycloak).getByRole('button', { name: 'UNLINK Keycloak' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Unlink Keycloak?' });
    await user.click(within(dialog).getByRole('button', { name: 'UNLINK' }));

    await expectToast(SSO_MESSAGES.unlinked('Keycloak'), 'neo@zion.example');
    expect(writes(calls)).toEqual([{ method: 'DELETE', url: '/api/user/identities/4', body: undefined }]);
    await waitFor(() =>
      expect(within(linkedList()).queryByRole('listitem', { name: 'Keycloak' })).not.toBeInTheDocument(),
    );
    expect(within(linkedList()).getByRole('listitem', { name: 'GitHub' })).toBeInTheDocument();
  });

  it("shows the server's 409 when it is the last way to sign in, and keeps the identity", async () => {
    const calls = server({ data: identities({ hasPassword: false }) }, () => ({
      status: 409,
      body: errorBody(409, SSO_MESSAGES.lastSignInMethod),
    }));
    const { user } = renderAccounts();
    const keycloak = await within(await screen.findByRole('list', { name: 'Linked accounts' })).findByRole(
      'listitem',
      { name: 'Keycloak' },
    );
    await user.click(within(keycloak).getByRole('button', { name: 'UNLINK Keycloak' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Unlink Keycloak?' });
    await user.click(within(dialog).getByRole('button', { name: 'UNLINK' }));
    await expectToast('Unlink Failed', SSO_MESSAGES.lastSignInMethod);
    expect(writes(calls)).toHaveLength(1);
    expect(within(linkedList()).getByRole('listitem', { name: 'Keycloak' })).toBeInTheDocument();
    expect(within(keycloak).getByRole('button', { name: 'UNLINK Keycloak' })).toBeEnabled();
  });

  it('says Failed to unlink the account when the server gives no message', async () => {
    server({ data: identities() }, () => ({ status: 500, body: '' }));
    const { user } = renderAccounts();
    const keycloak = await within(await screen.findByRole('list', { name: 'Linked accounts' })).findByRole(
      'listitem',
      { name: 'Keycloak' },
    );
    await user.click(within(keycloak).getByRole('button', { name: 'UNLINK Keycloak' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Unlink Keycloak?' })).getByRole('button', {
        name: 'UNLINK',
      }),
    );
    await expectToast('Unlink Failed', SSO_SCREEN_TEXTS.unlinkFailed);
  });

  it('confirms ?linked=<provider> with the name of the provider', async () => {
    server({ data: identities() });
    renderAccounts('/settings/accounts?linked=keycloak');
    const line = await screen.findByText(SSO_MESSAGES.linked('Keycloak'));
    expect(line.closest('[role="status"]')).toHaveTextContent('[OK] Keycloak linked');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each(SSO_ERROR_CODES)('shows ?sso_error=%s as an alert with its message', async (code) => {
    server({ data: identities() });
    renderAccounts(`/settings/accounts?sso_error=${code}`);
    expect(screen.getByRole('alert')).toHaveTextContent(SSO_ERROR_MESSAGES[code]);
    expect(await screen.findByRole('list', { name: 'Linked accounts' })).toBeInTheDocument();
  });

  it('shows a generic line for an error code it does not know', () => {
    server({ data: identities() });
    renderAccounts('/settings/accounts?sso_error=quantum_flux');
    expect(screen.getByRole('alert')).toHaveTextContent(SSO_SCREEN_TEXTS.unknownError);
  });
});
