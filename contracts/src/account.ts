import { z } from 'zod';

/*
 * The member's own account: exporting their data (one archive a day, a link valid 24 hours) and leaving
 * (deleting the account, keeping or deleting what they posted). The admin's delete of a member offers
 * the same choice.
 */

/** What `GET /api/user/export` says of the member's newest export. */
export const EXPORT_STATUSES = ['none', 'queued', 'running', 'ready', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** One export a member per this many hours; a ready archive is downloadable this long. */
export const EXPORT_EVERY_HOURS = 24;
export const EXPORT_VALID_HOURS = 24;
/** A provider-only member's mailed deletion link works this long, once. */
export const DELETE_LINK_VALID_MINUTES = 60;

export const exportStatusSchema = z.object({
  status: z.enum(EXPORT_STATUSES),
  /** The download link, while the archive is ready (the member's session must come with it). */
  url: z.string().optional(),
  requestedAt: z.string().optional(),
  expiresAt: z.string().optional(),
});
export type ExportStatusBody = z.infer<typeof exportStatusSchema>;

/** The download link's query: its expiry (Unix seconds) and signature. */
export const exportDownloadQuerySchema = z.object({
  expires: z.string().max(20).optional().describe('Unix seconds, as the link says'),
  signature: z.string().max(100).optional().describe('As the link says'),
});
export type ExportDownloadQuery = z.infer<typeof exportDownloadQuerySchema>;

export const exportQueuedSchema = z.object({ status: z.enum(EXPORT_STATUSES) });

/** `DELETE /api/user`: the password (absent for a member without one, who confirms by mail instead). */
export const deleteAccountSchema = z.object({
  password: z.string().max(1000).optional(),
  keepContent: z.boolean({ error: 'Choose whether to keep your pastes and replies (keepContent)' }),
});
export type DeleteAccountBody = z.infer<typeof deleteAccountSchema>;

export const deleteConfirmSchema = z.object({
  token: z.string({ error: 'The link has no token' }).min(1, 'The link has no token').max(200),
});
export type DeleteConfirmBody = z.infer<typeof deleteConfirmSchema>;

/** The admin's `DELETE /api/admin/users/{id}?keepContent=`: `true` (the default, as before) or `false`. */
export const adminDeleteUserQuerySchema = z.object({
  keepContent: z
    .enum(['true', 'false'], { error: 'keepContent must be true or false' })
    .optional()
    .describe(
      "Whether their pastes and replies stay: `true` (default) keeps them under 'Anonymous', `false` deletes them",
    ),
});
export type AdminDeleteUserQuery = z.infer<typeof adminDeleteUserQuerySchema>;

export const ACCOUNT_MESSAGES = {
  exportQueued: 'Your export is being prepared: we will mail you a link when it is ready',
  /** 429: a second export within EXPORT_EVERY_HOURS. */
  exportTooSoon: (retryAfterText: string) =>
    `You can export your data once a day: try again in ${retryAfterText}`,
  exportNotFound: 'Export not found',
  /** 410: the link of an archive past its 24 hours (or swept). */
  exportExpired: 'This export link has expired: request a new export',
  /** 400: a member with a password who sent none. */
  passwordRequired: 'Enter your password to delete your account',
  /** 403: the password does not match. */
  passwordIncorrect: 'Password is incorrect',
  /** 403: the owner's own account. */
  ownerCannotLeave: 'The owner cannot delete their own account: hand the forum over first',
  /** 202: a provider-only member's request. */
  deleteLinkSent: 'We mailed you a link: open it within 1 hour to delete your account',
  /** 400: a used, expired or unknown link. */
  deleteLinkInvalid: 'This link is invalid or has expired: ask for a new one',
  accountDeleted: 'Your account has been deleted',
  /** 429: too many deletion attempts (each checks the password) in an hour. */
  deleteTooMany: (seconds: number) =>
    `Too many attempts to delete the account. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
} as const;

export const ACCOUNT_TEXTS = {
  exportTitle: 'EXPORT MY DATA',
  exportHelp:
    'One archive (JSON files and your avatar) of your profile, pastes with every version, replies, ' +
    'messages, notifications, votes, reputation, tokens and linked providers. One export a day; the ' +
    'link works for 24 hours.',
  exportButton: 'EXPORT MY DATA',
  exportDownload: 'DOWNLOAD',
  exportStatus: {
    none: 'No export yet',
    queued: 'Queued: the archive is being prepared',
    running: 'Running: the archive is being built',
    ready: 'Ready',
    failed: 'Failed: try again',
    expired: 'Expired: request a new one',
  } satisfies Record<ExportStatus, string>,
  deleteTitle: 'DELETE MY ACCOUNT',
  deleteHelp:
    'Your sessions, tokens, linked providers, votes, messages and notifications are deleted, and your ' +
    'e-mail address is kept nowhere. This cannot be undone.',
  keepContent: "Keep my pastes and replies, under 'Anonymous'",
  deleteContent: 'Delete my pastes and replies',
  privateGo: 'Private pastes are deleted either way.',
  mailInstead: 'You signed in through a provider: we will mail you a link to confirm.',
  deleteButton: 'DELETE MY ACCOUNT',
  confirmTitle: 'Delete your account?',
  confirmBody: 'This cannot be undone.',
  confirmLinkTitle: 'Confirm the deletion of your account',
  confirmLinkButton: 'DELETE MY ACCOUNT NOW',
} as const;
