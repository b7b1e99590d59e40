import { API, SSO_MESSAGES, type Site } from '@termpaste/contracts';
import { renderScreen, stubFetch } from '@termpaste/ui/testing';
import { screen } from '@testing-library/react';
import { ForgotPasswordPage } from './forgot-password';
import { ResetPasswordPage } from './reset-password';

function site(localLogin: boolean): Site {
  return {
    productName: 'Termpaste',
    requireVerifiedEmail: true,
    localLogin,
    signInProviders: [{ id: 'keycloak', name: 'Keycloak', kind: 'oidc' }],
  };
}

/** GET /api/site answers with `localLogin`; any other call is recorded (none should be made here). */
function server(localLogin: boolean) {
  return stubFetch((call) =>
    call.url === API.site ? { body: site(localLogin) } : { status: 404, body: 'not stubbed' },
  );
}

const renderForgot = () => renderScreen(<ForgotPasswordPage />, { path: '/forgot-password', user: null });
const renderReset = (path = '/reset-password') => renderScreen(<ResetPasswordPage />, { path, user: null });

describe('/forgot-password and /reset-password under LOCAL_LOGIN', () => {
  it('/forgot-password shows its form while password sign-in is on', async () => {
    server(true);
    renderForgot();
    expect(await screen.findByRole('button', { name: 'SEND RESET LINK' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.queryByText(SSO_MESSAGES.localLoginOff)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  });

  it('/forgot-password under LOCAL_LOGIN=off says password sign-in is off, and shows no form', async () => {
    server(false);
    renderForgot();
    expect(await screen.findByText(SSO_MESSAGES.localLoginOff)).toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'SEND RESET LINK' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Register' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  });

  it('/reset-password shows its form while password sign-in is on (no token field with a token link)', async () => {
    server(true);
    renderReset('/reset-password?token=abc');
    expect(await screen.findByRole('button', { name: 'RESET PASSWORD' })).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
    expect(screen.queryByLabelText('Reset token')).not.toBeInTheDocument();
    expect(screen.queryByText(SSO_MESSAGES.localLoginOff)).not.toBeInTheDocument();
  });

  it('/reset-password under LOCAL_LOGIN=off says password sign-in is off, and shows no form', async () => {
    server(false);
    renderReset('/reset-password?token=abc');
    expect(await screen.findByText(SSO_MESSAGES.localLoginOff)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'RESET PASSWORD' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  });
});
