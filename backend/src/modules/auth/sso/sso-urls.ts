import { PAGES, type SsoErrorCode, type SsoIntent } from '@termpaste/contracts';

/**
 * Where a refused provider sign-in lands: the login page, or for a link the linked accounts' settings,
 * with `?sso_error=<code>` (the screens show SSO_ERROR_MESSAGES[code]). A visitor asking to link has no
 * settings to see: sign_in_required goes to the login page.
 */
export function refusalUrl(intent: SsoIntent, code: SsoErrorCode): string {
  const page = intent === 'link' && code !== 'sign_in_required' ? PAGES.settingsAccounts : PAGES.login;
  return `${page}?sso_error=${code}`;
}

/** Where a link lands once made. */
export function linkedUrl(provider: string): string {
  return `${PAGES.settingsAccounts}?linked=${encodeURIComponent(provider)}`;
}
