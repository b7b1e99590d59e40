import { z } from 'zod';
import { LIMITS } from './limits.js';

/** Usernames: 3–32 letters, digits, `_` or `-`; unique without regard to case. */
export const USERNAME = { min: 3, max: 32, pattern: /^[A-Za-z0-9_-]+$/ } as const;
/** Longest e-mail address (RFC 5321 path limit). */
export const EMAIL_MAX = 254;

const trimmed = (field: string) => z.string({ error: `${field} is required` }).trim();

export const usernameSchema = trimmed('Username')
  .min(USERNAME.min, `Username must be at least ${USERNAME.min} characters`)
  .max(USERNAME.max, `Username must be at most ${USERNAME.max} characters`)
  .regex(USERNAME.pattern, 'Username may contain only letters, digits, _ and -');

export const emailSchema = trimmed('Email')
  .min(1, 'Email is required')
  .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
  .email('Enter a valid email address');

export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(LIMITS.passwordMin, `Password must be at least ${LIMITS.passwordMin} characters`)
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters`);

const newPasswordSchema = z
  .string({ error: 'New password is required' })
  .min(LIMITS.passwordMin, `New password must be at least ${LIMITS.passwordMin} characters`)
  .max(LIMITS.passwordMax, `New password must be at most ${LIMITS.passwordMax} characters`);

export const registerSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type RegisterBody = z.infer<typeof registerSchema>;

export const loginSchema = z.object({
  usernameOrEmail: trimmed('Username or email')
    .min(1, 'Username or email is required')
    .max(EMAIL_MAX, 'Username or email is too long'),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(LIMITS.passwordMax),
});
export type LoginBody = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z.object({
  token: trimmed('Reset token').min(1, 'Reset token is required').max(256, 'Invalid or expired reset token'),
  newPassword: newPasswordSchema,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(LIMITS.passwordMax),
  newPassword: newPasswordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordSchema>;

/** A plain confirmation (`{"message": ...}`) for calls with nothing else to return. */
export const messageSchema = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof messageSchema>;

/** A sign-in provider as the screens show it (`GET /api/site`'s `signInProviders`). */
export const signInProviderSchema = z.object({
  id: z.string(),
  /** The button says "Continue with {name}". */
  name: z.string(),
  kind: z.enum(['oidc', 'github']),
});
export type SignInProvider = z.infer<typeof signInProviderSchema>;

/** Public facts about this installation: `GET /api/site`. */
export const siteSchema = z.object({
  productName: z.string(),
  /** REQUIRE_VERIFIED_EMAIL: members write only once their e-mail address is verified. */
  requireVerifiedEmail: z.boolean(),
  /** LOCAL_LOGIN: false hides password sign-in and registration (SSO only). */
  localLogin: z.boolean(),
  /** The configured sign-in providers whose discovery worked, in configuration order (GitHub last). */
  signInProviders: z.array(signInProviderSchema),
});
export type Site = z.infer<typeof siteSchema>;

/**
 * The client-side password checks, or null when the pair is fine; the change-password form words them for a
 * new password.
 */
export function passwordProblem(
  password: string,
  confirmation: string,
  form: 'new' | 'change' = 'new',
): string | null {
  if (password !== confirmation)
    return form === 'change' ? 'New passwords do not match' : 'Passwords do not match';
  if (password.length < LIMITS.passwordMin) {
    return form === 'change'
      ? `New password must be at least ${LIMITS.passwordMin} characters`
      : `Password must be at least ${LIMITS.passwordMin} characters`;
  }
  return null;
}

/**
 * A request header: the web app's own GET of the current user sends it (`SIGNED_OUT_HEADER: 204`) and
 * gets 204 No Content for a visitor instead of 401, so a visitor's page logs no failed request.
 */
export const SIGNED_OUT_HEADER = 'X-Signed-Out';
