import { z } from 'zod';

/**
 * The notifications a member may also have by e-mail while away, one preference each (a notification's
 * type names its preference).
 */
export const MAIL_NOTICE_KINDS = ['reply', 'mention', 'message', 'watch', 'tag', 'follow'] as const;
export type MailNoticeKind = (typeof MAIL_NOTICE_KINDS)[number];

/** In the site only, or also by e-mail when the member is away. */
export const NOTICE_CHANNELS = ['site', 'email'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];

export const DIGEST_FREQUENCIES = ['daily', 'weekly', 'never'] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];

/**
 * What a member who never chose gets: what is about them (replies, mentions, messages) by mail, what they
 * watch or follow in the site only, and a weekly digest.
 */
export const NOTIFICATION_PREFERENCE_DEFAULTS = {
  reply: 'email',
  mention: 'email',
  message: 'email',
  watch: 'site',
  tag: 'site',
  follow: 'site',
  digest: 'weekly',
} as const satisfies Record<MailNoticeKind, NoticeChannel> & { digest: DigestFrequency };

/** How the settings screen and the unsubscribe page name each preference. */
export const MAIL_NOTICE_LABELS: Record<MailNoticeKind, string> = {
  reply: 'Replies to you',
  mention: 'Mentions of you',
  message: 'Private messages',
  watch: 'Replies on pastes you watch',
  tag: 'New pastes with tags you watch',
  follow: 'New pastes of members you follow',
};

/** What an unsubscribe link turns off: one kind's mails, the digest, or every mail of these. */
export const UNSUBSCRIBE_SCOPES = [...MAIL_NOTICE_KINDS, 'digest', 'all'] as const;
export type UnsubscribeScope = (typeof UNSUBSCRIBE_SCOPES)[number];

export const MAIL_PREFERENCE_MESSAGES = {
  channelInvalid: 'Each notification is either "site" (in the site only) or "email" (also by e-mail)',
  digestInvalid: 'The digest is "daily", "weekly" or "never"',
  tokenMissing: 'The unsubscribe link has no token',
  tokenInvalid: 'This unsubscribe link is not valid',
  saved: 'Notification preferences saved',
} as const;

/** What each unsubscribe scope stops, after "No more e-mails about …" / "No more …". */
export function unsubscribeWhat(scope: UnsubscribeScope): string {
  if (scope === 'digest') return 'the digest of the top pastes';
  if (scope === 'all') return 'notification e-mails and digests at all';
  return `e-mails about: ${MAIL_NOTICE_LABELS[scope].toLowerCase()}`;
}

const channel = z.enum(NOTICE_CHANNELS, { error: MAIL_PREFERENCE_MESSAGES.channelInvalid });
const digest = z.enum(DIGEST_FREQUENCIES, { error: MAIL_PREFERENCE_MESSAGES.digestInvalid });

/** A member's notification preferences (`GET /api/user/notification-preferences`). */
export const notificationPreferencesSchema = z.object({
  reply: channel,
  mention: channel,
  message: channel,
  watch: channel,
  tag: channel,
  follow: channel,
  digest,
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** `PUT /api/user/notification-preferences`: the preferences to change; the others stay. */
export const updateNotificationPreferencesSchema = notificationPreferencesSchema.partial();
export type UpdateNotificationPreferencesBody = z.infer<typeof updateNotificationPreferencesSchema>;

/** What an unsubscribe link does: whose mail, what it stops, and whether that is off already. */
export const unsubscribeResultSchema = z.object({
  username: z.string(),
  scope: z.enum(UNSUBSCRIBE_SCOPES),
  /** `unsubscribeWhat(scope)`. */
  what: z.string(),
  /** Already off (GET), or turned off now (POST). */
  unsubscribed: z.boolean(),
});
export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;
