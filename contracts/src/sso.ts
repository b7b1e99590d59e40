import { z } from 'zod';
import { signInProviderSchema, usernameSchema } from './auth.js';

/*
 * Single sign-on with OpenID Connect providers and GitHub; a provider sign-in is a normal session. The flow:
 * docs/sso.md.
 */

/** Provider ids: lower-case letters, digits and dashes (they appear in URLs). `github` is GitHub's. */
export const SSO_PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const GITHUB_PROVIDER_ID = 'github';

export const SSO_INTENTS = ['login', 'link'] as const;
export type SsoIntent = (typeof SSO_INTENTS)[number];

/** Codes the callback puts in `?sso_error=` (the screens show SSO_ERROR_MESSAGES[code]). */
export const SSO_ERROR_CODES = [
  'provider_error',
  'state_mismatch',
  'unknown_provider',
  'provider_unavailable',
  'banned',
  'email_taken',
  'identity_taken',
  'already_linked',
  'sign_in_required',
  'rate_limited',
  'local_account_required',
  'email_required',
] as const;
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];

/** Passwords are off (LOCAL_LOGIN=off): the 403 of the password calls, and the like-named SSO error. */
const LOCAL_LOGIN_OFF = 'Sign-in with a password is turned off on this site: continue with a provider.';

export const SSO_ERROR_MESSAGES: Record<SsoErrorCode, string> = {
  provider_error: 'The sign-in provider refused or failed the sign-in. Try again.',
  state_mismatch: 'That sign-in link is stale or was already used. Start again.',
  unknown_provider: 'That sign-in provider is not configured on this site.',
  provider_unavailable: 'The sign-in provider cannot be reached right now. Try again in a moment.',
  /** The same words as a banned member's password sign-in (AUTH banned message). */
  banned: 'Your account has been banned',
  email_taken:
    'An account with this e-mail address already exists. Sign in to it with your password, then link this provider in settings.',
  identity_taken: 'This provider account is already linked to another member.',
  already_linked: 'You have already linked an account of this provider.',
  sign_in_required: 'Sign in first to link a provider to your account.',
  rate_limited: 'Too many sign-in attempts. Try again later.',
  local_account_required: LOCAL_LOGIN_OFF,
  email_required:
    'The provider did not share a verified or unverified e-mail address. Allow it to, or register with a password.',
};

/** Texts of the SSO calls and screens. */
export const SSO_MESSAGES = {
  continueWith: (name: string) => `Continue with ${name}`,
  /** POST /api/login, /api/register, /api/forgot-password and /api/reset-password under LOCAL_LOGIN=off (403). */
  localLoginOff: LOCAL_LOGIN_OFF,
  /** POST API.ssoUsername when the member has already chosen (409). */
  usernameAlreadyChosen: 'You have already chosen your username.',
  identityNotFound: 'Linked account not found',
  /** DELETE API.userIdentity when it is the account's last way to sign in (409). */
  lastSignInMethod:
    'This is your only way to sign in: set a password (forgot password) or link another provider first.',
  /** `GET /api/auth/sso/{provider}` with a query no button makes (400). */
  invalidIntent: 'intent must be login or link',
  invalidNext: 'next must be one path of this site',
  linked: (name: string) => `${name} linked`,
  unlinked: (name: string) => `${name} unlinked`,
} as const;

/** `GET /api/auth/sso/{provider}` query. */
export const ssoStartQuerySchema = z.object({
  intent: z
    .enum(SSO_INTENTS, { error: SSO_MESSAGES.invalidIntent })
    .default('login')
    .meta({ description: 'Sign in (or make an account), or link the provider to the signed-in member' }),
  /** A path of this site to land on after sign-in (`/…`, never `//…`); anything else means `/`. */
  next: z.string({ error: SSO_MESSAGES.invalidNext }).optional().meta({
    description:
      'A path of this site to land on after signing in (`/…`, never `//…`); anything else means `/`',
  }),
});
export type SsoStartQuery = z.infer<typeof ssoStartQuerySchema>;

/**
 * `POST /api/auth/sso/username` {username}: a member whose account a provider sign-in made keeps or
 * changes the proposed username, once (the usual username rules; 409 once chosen).
 */
export const ssoUsernameSchema = z.object({ username: usernameSchema });
export type SsoUsernameBody = z.infer<typeof ssoUsernameSchema>;

/** A provider identity linked to the signed-in member: `GET /api/user/identities`. */
export const identitySchema = z.object({
  id: z.number().int(),
  provider: z.string(),
  providerName: z.string(),
  /** The provider's e-mail for this identity, when it gave one. */
  email: z.string().nullable(),
  linkedAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Identity = z.infer<typeof identitySchema>;

export const identitiesSchema = z.object({
  identities: z.array(identitySchema),
  /** Whether the account has a password (false: made by a provider and never given one). */
  hasPassword: z.boolean(),
  /** The configured providers the member has not linked yet (each can be linked). */
  available: z.array(signInProviderSchema),
});
export type Identities = z.infer<typeof identitiesSchema>;

/**
 * `GET API.ssoRefusal`: the full words of the session's last refused provider sign-in, when the code
 * alone says too little (a ban's end and reason); null otherwise. Kept server side, so that a hand-made
 * `?sso_error=` link cannot put words of its own on the sign-in page.
 */
export const ssoRefusalSchema = z.object({ message: z.string().nullable() });
export type SsoRefusal = z.infer<typeof ssoRefusalSchema>;

/** A local path to return to after sign-in, or `/` when `next` is absent or points elsewhere. */
export function safeNextPath(next: string | undefined | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  if ([...next].some((char) => char.charCodeAt(0) < 0x20)) return '/';
  return next;
}

/** Texts of the SSO screens beside the server's: the e2e suite finds the screens by them. */
export const SSO_SCREEN_TEXTS = {
  /** An `?sso_error=` code the screens do not know (a newer server, a hand-made link). */
  unknownError: 'Sign-in with the provider failed. Try again.',
  /** /login and /register under LOCAL_LOGIN=off when no provider is configured either. */
  signInUnavailable:
    'Sign-in is unavailable: password sign-in is turned off and no sign-in provider is configured. Ask the operators of this site.',
  /** /register under LOCAL_LOGIN=off: the first sign-in with a provider makes the account. */
  registerThroughProvider:
    'New accounts are made by signing in with a provider: your first sign-in creates your account.',
  /** PAGES.ssoWelcome. */
  welcomeTitle: 'Choose your username',
  welcomeIntro:
    'Your account is ready. Other members see this name beside your pastes and replies. You can change it now, once: after this it stays.',
  usernameSaved: 'Username saved',
  usernameSavedText: (username: string) => `Welcome aboard, ${username}`,
  usernameFailed: 'Failed to save your username',
  /** PAGES.settingsAccounts. */
  noIdentities: 'No provider is linked to your account yet.',
  noProviders: 'No sign-in provider is configured on this site.',
  identitiesLoadFailed: 'Could not load your linked accounts. Try again in a moment.',
  unlinkFailed: 'Failed to unlink the account',
  passwordSet: 'You can also sign in with your username or e-mail and your password.',
  passwordNotSet:
    'This account has no password: you sign in with a provider only. To set one, sign out and use "Forgot password?" with your e-mail address.',
} as const;

/** What the screens say for `?sso_error=<code>`: its message, a generic line for an unknown code, null without one. */
export function ssoErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  return (SSO_ERROR_CODES as readonly string[]).includes(code)
    ? SSO_ERROR_MESSAGES[code as SsoErrorCode]
    : SSO_SCREEN_TEXTS.unknownError;
}
