import { z } from 'zod';
import { PREMIUM_RANK_NAMES } from './ranks.js';
import { storableText } from './text.js';

/** Profile fields (beyond the spec: the spec sets no limits). */
export const PROFILE_LIMITS = { nameMax: 64, bioMax: 5_000 } as const;
/** A presigned upload form is valid this long. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;

/**
 * Upload addresses a member may ask for an hour: with the sweep of unclaimed uploads, it bounds one member's
 * storage.
 */
export const UPLOAD_RATE_LIMIT_DEFAULT_PER_HOUR = 20;

/**
 * Profile saves (`PUT /api/user/profile`) an hour, per member and per address (RATE_LIMIT_PROFILE_SAVES_*):
 * each one makes every instance drop the cached pages that show the member.
 */
export const PROFILE_SAVE_RATE_LIMIT_DEFAULTS = { perHour: 10, perAddressPerHour: 20 } as const;
/** Image types an avatar may be, told by the file's first bytes (not its name or header). */
export const AVATAR_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type AvatarContentType = (typeof AVATAR_CONTENT_TYPES)[number];

export const SETTINGS_MESSAGES = {
  firstNameTooLong: `First name must be at most ${PROFILE_LIMITS.nameMax} characters`,
  lastNameTooLong: `Last name must be at most ${PROFILE_LIMITS.nameMax} characters`,
  bioTooLong: `Bio must be at most ${PROFILE_LIMITS.bioMax} characters`,
  rankNotOwned: 'You do not own this rank',
  unknownRank: 'Unknown rank',
  uploadExpired: 'Request has expired',
  uploadInvalid: 'Invalid upload address',
  uploadTooLarge: 'File is too large (max 10MB)',
  uploadNotImage: 'Only PNG, JPEG, GIF or WebP images can be uploaded',
  uploadNotForm: 'Send the upload as a form: its signed fields, then the file',
  uploadLengthRequired: 'Send the file with its Content-Length',
  uploadUsed: 'This upload address has been used already',
  avatarNotUploaded: 'The avatar must be an image you uploaded',
  uploadTooMany: (seconds: number) =>
    `Too many uploads. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  profileSaveTooMany: (seconds: number) =>
    `Too many profile changes. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  passwordChangeTooMany: (seconds: number) =>
    `Too many password changes. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  supportSent: 'Your message has been sent to the staff',
  noStaff: 'No staff member can receive your message yet',
} as const;

/** UI texts of the settings screens. */
export const SETTINGS_TEXTS = {
  uploading: 'UPLOADING...',
  avatarHint: 'Max 10MB, JPG/PNG/GIF',
  usernameFixed: 'Username cannot be changed',
  notAuthenticated: 'Not authenticated',
  profileUpdated: 'Profile Updated',
  profileUpdatedText: 'Your profile has been saved successfully',
  profileFailed: 'Update Failed',
  profileFailedText: 'Failed to update profile',
  avatarUpdated: 'Avatar Updated',
  avatarUpdatedText: 'Your avatar has been uploaded successfully',
  avatarFailed: 'Upload Failed',
  avatarFailedText: 'Failed to update avatar',
  rankUpdated: 'Your active rank has been updated',
  rankFailed: 'Failed to update rank',
} as const;

/** An optional text field: trimmed; empty means none (null). */
const optionalText = (max: number, message: string) =>
  z.preprocess(
    storableText,
    z
      .string()
      .trim()
      .max(max, message)
      .nullable()
      .optional()
      .transform((value) => (value ? value : null)),
  );

/** `PUT /api/user/profile` {bio, firstName, lastName}: each optional; an empty one clears the field. */
export const updateProfileSchema = z.object({
  firstName: optionalText(PROFILE_LIMITS.nameMax, SETTINGS_MESSAGES.firstNameTooLong),
  lastName: optionalText(PROFILE_LIMITS.nameMax, SETTINGS_MESSAGES.lastNameTooLong),
  bio: optionalText(PROFILE_LIMITS.bioMax, SETTINGS_MESSAGES.bioTooLong),
});
export type UpdateProfileBody = z.input<typeof updateProfileSchema>;

/** `POST /api/user/select-rank` {rankName}: one of the member's owned grades, or null for the reputation rank. */
export const selectRankSchema = z.object({
  rankName: z.string().nullable(),
});
export type SelectRankBody = z.infer<typeof selectRankSchema>;

/**
 * The same upload as a presigned form: POST `fields` as is, then the file in `file`, last (to the bucket
 * with S3, so the file never passes the API). Anything but the signed key, size and type is refused.
 */
export const uploadFormSchema = z.object({
  url: z.string(),
  method: z.literal('POST'),
  fields: z.record(z.string(), z.string()),
});
export type UploadForm = z.infer<typeof uploadFormSchema>;

/**
 * `POST /api/objects/upload`: where to send one avatar file (PUT the bytes to `uploadURL`, or POST
 * `form`), then `PUT /api/user/avatar` makes it the avatar. The upload flow: docs/api.md.
 */
export const uploadTicketSchema = z.object({
  uploadURL: z.string(),
  method: z.literal('PUT'),
  form: uploadFormSchema,
  /** The uploaded object's address, to claim it with. */
  objectURL: z.string(),
});
export type UploadTicket = z.infer<typeof uploadTicketSchema>;

/**
 * `PUT /api/user/avatar` {avatarURL}: the objectURL of an upload (copied then to an avatar address that
 * no upload form names), or the member's current avatar URL (no change).
 */
export const setAvatarSchema = z.object({ avatarURL: z.string().trim().min(1).max(2048) });
export type SetAvatarBody = z.infer<typeof setAvatarSchema>;

/** `POST /api/support` {subject, content}: a private message to the owner and every admin. */
export const supportRequestSchema = z.object({
  subject: z.preprocess(storableText, z.string().trim().min(1, 'Subject is required').max(200)),
  content: z.preprocess(storableText, z.string().trim().min(1, 'Message is required').max(20_000)),
});
export type SupportRequestBody = z.infer<typeof supportRequestSchema>;

/** `POST /api/support`: how many staff members got it. */
export const supportResultSchema = z.object({ recipients: z.number().int() });

export const premiumRankNameSchema = z.enum(PREMIUM_RANK_NAMES);
