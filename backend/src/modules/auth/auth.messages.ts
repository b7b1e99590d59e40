import { bannedMessage } from '@termpaste/contracts';

/** The texts the auth endpoints answer with; the screens toast the server's message. */
export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid username/email or password',
  banned: 'Your account has been banned',
  resetLinkSent: 'If an account exists for that email, a reset link has been sent.',
  invalidResetToken: 'Invalid or expired reset token',
  passwordReset: 'Your password has been reset. You can now sign in with it.',
  currentPasswordIncorrect: 'Current password is incorrect',
  passwordChanged: 'Your password has been updated',
  /** POST /api/change-password for an account a sign-in provider made, which has no password. */
  noPasswordYet:
    'Your account has no password yet: you sign in with a provider. Set one with "Forgot password" on the sign-in page.',
} as const;

/**
 * What a banned member hears when they sign in: the spec's words for a ban for ever without a reason,
 * else when it ends and why (contracts' bannedMessage).
 */
export function signInRefusal(user: { bannedUntil: Date | null; banReason: string | null }): string {
  return user.bannedUntil === null && user.banReason === null
    ? AUTH_MESSAGES.banned
    : bannedMessage(user.bannedUntil, user.banReason);
}
