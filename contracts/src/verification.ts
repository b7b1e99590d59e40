import { z } from 'zod';

/**
 * E-mail verification and the owner's setup code: an unverified member reads but does not write (unless
 * REQUIRE_VERIFIED_EMAIL=false); without OWNER_EMAIL, the owner is whoever enters the start-up log's code.
 */

/** How long a verification link works. */
export const VERIFY_LINK_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** Re-sent verification links per member an hour, and per client address an hour (defaults). */
export const VERIFY_RESEND_RATE_LIMIT_DEFAULTS = { perUserPerHour: 3, perAddressPerHour: 10 } as const;

/** Setup-code tries an hour, per member and per client address (right or wrong). */
export const OWNER_SETUP_TRIES_PER_HOUR = 5;

export const VERIFY_MESSAGES = {
  /** The 403 of every member write while the address is not verified. */
  unverified: 'Verify your e-mail address first: open the link we mailed you (or re-send it from the banner)',
  invalidToken: 'Invalid or expired verification link',
  tokenRequired: 'Verification token is required',
  verified: 'Your e-mail address is verified',
  alreadyVerified: 'Your e-mail address is already verified',
  linkSent: 'A new verification link is on its way',
  resendTooMany: (seconds: number) => `Too many verification mails. Try again in ${seconds} seconds.`,
} as const;

export const OWNER_SETUP_MESSAGES = {
  claimed: 'You are now the owner and an admin of this forum',
  codeRequired: 'Setup code is required',
  invalidCode: 'Invalid setup code',
  ownerExists: 'This forum already has an owner',
  ownerEmailSet: 'The owner is the account with OWNER_EMAIL: no setup code applies',
  verifyFirst: 'Verify your e-mail address before you claim the forum',
  tooMany: (seconds: number) => `Too many setup code tries. Try again in ${seconds} seconds.`,
} as const;

/** `POST /api/verify-email`: the token of the mailed link. */
export const verifyEmailSchema = z.object({
  token: z
    .string({ error: VERIFY_MESSAGES.tokenRequired })
    .trim()
    .min(1, VERIFY_MESSAGES.tokenRequired)
    .max(256, VERIFY_MESSAGES.invalidToken),
});
export type VerifyEmailBody = z.infer<typeof verifyEmailSchema>;

/** `POST /api/owner/claim`: the setup code (any letter case; spaces and dashes ignored). */
export const ownerClaimSchema = z.object({
  code: z
    .string({ error: OWNER_SETUP_MESSAGES.codeRequired })
    .trim()
    .min(1, OWNER_SETUP_MESSAGES.codeRequired)
    .max(64, OWNER_SETUP_MESSAGES.invalidCode),
});
export type OwnerClaimBody = z.infer<typeof ownerClaimSchema>;
