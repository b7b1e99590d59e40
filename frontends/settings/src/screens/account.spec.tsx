import {
  ACCOUNT_MESSAGES,
  ACCOUNT_TEXTS,
  API,
  type ExportStatusBody,
  type Identities,
} from '@termpaste/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { errorBody, expectToast, renderScreen, stubFetch, writes, type FetchAnswer } from '../testing';
import { AccountScreen } from './account';

function server(state: { export: ExportStatusBody; hasPassword?: boolean; onWrite?: () => FetchAnswer }) {
  const identities: Identities = { identities: [], hasPassword: state.hasPassword ?? true, available: [] };
  return stubFetch((call) => {
    if (call.method === 'GET' && call.url === API.userExport) return { body: state.export };
    if (call.method === 'GET' && call.url === API.userIdentities) return { body: identities };
    if (call.method !== 'GET') return state.onWrite?.() ?? { status: 204, body: '' };
    return { status: 404, body: 'not stubbed' };
  });
}

const renderAccount = (path = '/settings/account') =>
  renderScreen(<AccountScreen />, { path, route: '/settings/account' });

describe('your data and account (/settings/account)', () => {
  beforeEach(() => {
    // Leaving after a deletion loads the landing page, which jsdom reports it cannot do.
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('shows the export state and queues one, saying one a day', async () => {
    const state = {
      export: { status: 'none' } as ExportStatusBody,
      onWrite: (): FetchAnswer => ({ status: 202, body: { status: 'queued' } }),
    };
    const calls = server(state);
    const { user } = renderAccount();
    const status = await screen.findByTestId('export-status');
    expect(status).toHaveTextContent(ACCOUNT_TEXTS.exportStatus.none);
    expect(screen.getByText('One export every 24 hours.')).toBeInTheDocument();
    state.export = { status: 'queued', requestedAt: new Date().toISOString() };
    await user.click(screen.getByRole('button', { name: ACCOUNT_TEXTS.exportButton }));
    await expectToast('Export queued', ACCOUNT_MESSAGES.exportQueued);
    expect(writes(calls)).toEqual([{ method: 'POST', url: API.userExport, body: undefined }]);
    await waitFor(() =>
      expect(screen.getByTestId('export-status')).toHaveTextContent(ACCOUNT_TEXTS.exportStatus.queued),
    );
    expect(screen.getByRole('button', { name: ACCOUNT_TEXTS.exportButton })).toBeDisabled();
  });

  it("shows the server's 429 text when the day is not over", async () => {
    const message = ACCOUNT_MESSAGES.exportTooSoon('5 hours');
    server({
      export: { status: 'expired' },
      onWrite: () => ({ status: 429, body: errorBody(429, message) }),
    });
    const { user } = renderAccount();
    await screen.findByTestId('export-status');
    await user.click(screen.getByRole('button', { name: ACCOUNT_TEXTS.exportButton }));
    await expectToast('Export Not Started', message);
  });

  it('offers the link of a ready export', async () => {
    const url = 'http://localhost/api/user/export/3/download?expires=1&signature=x';
    server({
      export: {
        status: 'ready',
        url,
        requestedAt: new Date().toISOString(),
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    renderAccount();
    expect(await screen.findByRole('link', { name: ACCOUNT_TEXTS.exportDownload })).toHaveAttribute(
      'href',
      url,
    );
  });

  it('deletes the account with the password and the chosen option, after a final confirm', async () => {
    const calls = server({ export: { status: 'none' } });
    const { user } = renderAccount();
    const submit = await screen.findByRole('button', { name: ACCOUNT_TEXTS.deleteButton });
    expect(submit).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: ACCOUNT_TEXTS.deleteContent }));
    await user.type(screen.getByLabelText('Password'), 'secret words');
    await user.click(submit);
    const dialog = await screen.findByRole('alertdialog', { name: ACCOUNT_TEXTS.confirmTitle });
    await user.click(within(dialog).getByRole('button', { name: ACCOUNT_TEXTS.deleteButton }));
    await expectToast(ACCOUNT_MESSAGES.accountDeleted, 'Goodbye.');
    expect(writes(calls)).toEqual([
      { method: 'DELETE', url: API.userAccount, body: { password: 'secret words', keepContent: false } },
    ]);
  });

  it('mails a link to a member without a password, and the link confirms', async () => {
    const calls = server({
      export: { status: 'none' },
      hasPassword: false,
      onWrite: () => ({ status: 202, body: { message: ACCOUNT_MESSAGES.deleteLinkSent } }),
    });
    const { user } = renderAccount();
    expect(await screen.findByText(ACCOUNT_TEXTS.mailInstead)).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: ACCOUNT_TEXTS.keepContent }));
    await user.click(screen.getByRole('button', { name: ACCOUNT_TEXTS.deleteButton }));
    const dialog = await screen.findByRole('alertdialog', { name: ACCOUNT_TEXTS.confirmTitle });
    await user.click(within(dialog).getByRole('button', { name: ACCOUNT_TEXTS.deleteButton }));
    await expectToast('Check your mail', ACCOUNT_MESSAGES.deleteLinkSent);
    expect(writes(calls)).toEqual([{ method: 'DELETE', url: API.userAccount, body: { keepContent: true } }]);
  });

  it('confirms from the mailed link', async () => {
    const calls = server({ export: { status: 'none' } });
    const { user } = renderAccount('/settings/account?deleteToken=tok123');
    await user.click(await screen.findByRole('button', { name: ACCOUNT_TEXTS.confirmLinkButton }));
    await expectToast(ACCOUNT_MESSAGES.accountDeleted, 'Goodbye.');
    expect(writes(calls)).toEqual([
      { method: 'POST', url: API.userDeleteConfirm, body: { token: 'tok123' } },
    ]);
  });
});
