import { z } from 'zod';
import { pasteRefSchema } from './visibility.js';
import { publicAuthorSchema } from './paste-views.js';
import { LIMITS } from './limits.js';
import { PASTE_LIVE_EVENT, pasteLiveEventSchemas } from './live.js';
import { storableText } from './text.js';

/** A private message's content: at most this many characters. */
export const MESSAGE_CONTENT_MAX = 20_000;
/** Private messages per page of the inbox and of the sent list. */
export const MESSAGES_PAGE_SIZE = 50;
/** Notifications per page. */
export const NOTIFICATIONS_PAGE_SIZE = 50;
/** `GET /api/chat` and `GET /api/chat/messages`: the latest this many chat messages. */
export const CHAT_HISTORY_SIZE = 100;
/** At most this many distinct members are notified of the @mentions in one paste or reply. */
export const MENTIONS_PER_POST_MAX = 20;

/** Chat rate limit defaults (per member): RATE_LIMIT_CHAT_MESSAGES in RATE_LIMIT_CHAT_WINDOW_SECONDS. */
export const CHAT_RATE_LIMIT_DEFAULTS = { messages: 5, windowSeconds: 10 } as const;

/** Private message rate limits per member, support requests included, against floods of messages. */
export const PRIVATE_MESSAGE_RATE_LIMIT_DEFAULTS = { perMinute: 10, perHour: 60 } as const;

export const MESSAGING_MESSAGES = {
  recipientRequired: 'Recipient is required',
  userNotFound: 'User not found',
  messageToSelf: 'You cannot send a message to yourself',
  subjectRequired: 'Subject is required',
  subjectTooLong: `Subject must be at most ${LIMITS.subjectMax} characters`,
  contentRequired: 'Message is required',
  contentTooLong: `Message must be at most ${MESSAGE_CONTENT_MAX} characters`,
  messageNotFound: 'Message not found',
  notificationNotFound: 'Notification not found',
  chatRequired: 'Message cannot be empty',
  chatTooLong: `Message must be at most ${LIMITS.chatMessageMax} characters`,
  /** 429 of chat messages, private messages and support requests. */
  chatTooFast: (seconds: number) =>
    `You are sending messages too fast. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
} as const;

/** UI texts of the messaging screens. */
export const MESSAGING_TEXTS = {
  noMessages: 'No messages yet',
  selectMessage: 'Select a message to view or compose a new one',
  messageSent: 'Message sent',
  noNotifications: 'No notifications yet',
  allRead: 'All notifications marked as read',
  chatEmpty: 'No messages yet. Be the first to start the conversation!',
  chatSignedOut: 'You must be logged in to access the global chat.',
  chatSendFailed: 'Failed to send message',
  globalChat: 'GLOBAL CHAT',
  /** The chat popover's round button (and the shell's stand-in for it, REMOTE_WIDGETS). */
  openGlobalChat: 'Open global chat',
} as const;

/** `POST /api/messages`: recipientEmail holds an e-mail address or a username. */
export const sendMessageSchema = z.object({
  recipientEmail: z.preprocess(
    storableText,
    z
      .string(MESSAGING_MESSAGES.recipientRequired)
      .trim()
      .min(1, MESSAGING_MESSAGES.recipientRequired)
      .max(320, MESSAGING_MESSAGES.userNotFound),
  ),
  subject: z.preprocess(
    storableText,
    z
      .string(MESSAGING_MESSAGES.subjectRequired)
      .trim()
      .min(1, MESSAGING_MESSAGES.subjectRequired)
      .max(LIMITS.subjectMax, MESSAGING_MESSAGES.subjectTooLong),
  ),
  /** Kept as written (a pasted snippet keeps its indentation); must not be blank. */
  content: z.preprocess(
    storableText,
    z
      .string(MESSAGING_MESSAGES.contentRequired)
      .refine((value) => value.trim().length > 0, MESSAGING_MESSAGES.contentRequired)
      .refine((value) => value.length <= MESSAGE_CONTENT_MAX, MESSAGING_MESSAGES.contentTooLong),
  ),
});
export type SendMessageBody = z.infer<typeof sendMessageSchema>;

/**
 * A private message. A message addressed by e-mail never names its recipient (that would match the
 * address to a member): `recipient` is null and `recipientAddress` is the address as typed.
 */
export const privateMessageSchema = z.object({
  id: z.number().int(),
  /** Null when the account was deleted. */
  sender: publicAuthorSchema.nullable(),
  /** Null when the account was deleted, or when the message was addressed by e-mail. */
  recipient: publicAuthorSchema.nullable(),
  /** The e-mail address the message was sent to, as typed; null when it was sent to a username. */
  recipientAddress: z.string().nullable(),
  subject: z.string(),
  content: z.string(),
  createdAt: z.string(),
  isRead: z.boolean(),
});
export type PrivateMessage = z.infer<typeof privateMessageSchema>;

/** `GET /api/messages?cursor=` (inbox) and `GET /api/messages/sent?cursor=`: newest first, keyset-paged. */
export const messagesPageSchema = z.object({
  messages: z.array(privateMessageSchema),
  nextCursor: z.string().nullable(),
});
export type MessagesPage = z.infer<typeof messagesPageSchema>;

/**
 * `moderation`: a flag of theirs was decided, a post of theirs was hidden, held, approved or rejected.
 * `watch`: a reply on a paste they watch; `follow`: a new public paste of a member they follow; `tag`: a
 * new public paste with a tag they watch.
 */
export const NOTIFICATION_TYPES = [
  'reply',
  'message',
  'mention',
  'moderation',
  'watch',
  'follow',
  'tag',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** A notification; `actor` is who caused it. */
export const notificationSchema = z.object({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  content: z.string(),
  isRead: z.boolean(),
  createdAt: z.string(),
  /** The paste it is about, by its ref (its key when it is not public). */
  threadId: pasteRefSchema.nullable(),
  actor: publicAuthorSchema.nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** `GET /api/notifications?cursor=`: newest first, keyset-paged; `unreadCount` counts every unread one. */
export const notificationsPageSchema = z.object({
  notifications: z.array(notificationSchema),
  nextCursor: z.string().nullable(),
  unreadCount: z.number().int(),
});
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;

/** `GET /api/notifications/unread-count`: a bare number. */
export const unreadCountSchema = z.number().int().nonnegative();

const chatText = z.preprocess(
  storableText,
  z
    .string(MESSAGING_MESSAGES.chatRequired)
    .trim()
    .min(1, MESSAGING_MESSAGES.chatRequired)
    .max(LIMITS.chatMessageMax, MESSAGING_MESSAGES.chatTooLong),
);

/** `POST /api/chat` (popover variant). */
export const chatPostSchema = z.object({ message: chatText });
/** `POST /api/chat/messages` (chat page variant). */
export const chatMessagePostSchema = z.object({ content: chatText });

/** The author of a chat message: the public author, so a chat line can link and show a rank. */
export const chatAuthorSchema = publicAuthorSchema;

/** A chat message. Null author: the account was deleted. */
export const chatMessageSchema = z.object({
  id: z.number().int(),
  content: z.string(),
  createdAt: z.string(),
  author: chatAuthorSchema.nullable(),
  /** Hidden pending review (members' flags): its content is empty, shown as a placeholder. */
  hidden: z.boolean(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** `GET /api/chat` and `GET /api/chat/messages`: the latest CHAT_HISTORY_SIZE, newest first. */
export const chatHistorySchema = z.array(chatMessageSchema);

/**
 * Events the server sends on `/ws/chat`, one JSON object per frame. A chat message goes out twice, once
 * in each shape the two clients read. Socket scopes (`user`, `public`): docs/live.md.
 */
export const LIVE_EVENT = {
  ...PASTE_LIVE_EVENT,
  chatMessage: 'chat_message',
  newMessage: 'new_message',
  notification: 'notification',
  unreadCount: 'unread_count',
  privateMessage: 'private_message',
  /**
   * The socket's session was revoked (banned, deleted, password reset, or changed in another session):
   * the server closes the socket after it.
   */
  signedOut: 'signed_out',
  pong: 'pong',
  /** A chat message was hidden pending review or deleted by staff: show the placeholder in its place. */
  chatHidden: 'chat_hidden',
  /** A hidden chat message was shown again (staff disagreed with its flags): put it back. */
  chatShown: 'chat_shown',
  /** To each admin: the review queue's open items now (the admin navigation's count). */
  reviewCount: 'review_count',
} as const;

export const liveEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal(LIVE_EVENT.chatMessage), message: chatMessageSchema }),
  z.object({ type: z.literal(LIVE_EVENT.newMessage), message: chatMessageSchema }),
  z.object({ type: z.literal(LIVE_EVENT.notification), notification: notificationSchema }),
  z.object({ type: z.literal(LIVE_EVENT.unreadCount), count: z.number().int().nonnegative() }),
  /** A private message arrived in the member's inbox. */
  z.object({ type: z.literal(LIVE_EVENT.privateMessage), message: privateMessageSchema }),
  z.object({ type: z.literal(LIVE_EVENT.signedOut) }),
  z.object({ type: z.literal(LIVE_EVENT.pong) }),
  z.object({ type: z.literal(LIVE_EVENT.chatHidden), id: z.number().int() }),
  z.object({ type: z.literal(LIVE_EVENT.chatShown), message: chatMessageSchema }),
  z.object({ type: z.literal(LIVE_EVENT.reviewCount), count: z.number().int().nonnegative() }),
  ...pasteLiveEventSchemas,
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;

/**
 * Frames a client may send: `{"type":"ping"}` is answered with `{"type":"pong"}`; `{"type":"watch",...}`
 * (live.ts) says what the socket shows; others are ignored.
 */
export const LIVE_CLIENT_PING = { type: 'ping' } as const;
/** Largest client frame the server reads; a bigger one closes that socket (1009). */
export const LIVE_MAX_CLIENT_FRAME_BYTES = 4096;
/** `/ws/chat?scope=user`: only the member's own events. */
export const LIVE_SCOPE_USER = 'user';

/**
 * `PATCH /api/notifications/{id}/read` and `POST /api/notifications/mark-all-read`: the member's unread
 * count afterwards.
 */
export const unreadCountResultSchema = z.object({ unreadCount: z.number().int().nonnegative() });
export type UnreadCountResult = z.infer<typeof unreadCountResultSchema>;
