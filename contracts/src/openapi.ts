import { z } from 'zod';
import {
  adminGradesSchema,
  adminRenameSchema,
  adminRoleSchema,
  adminUserSchema,
  adminUsersPageSchema,
  auditEntrySchema,
  auditPageSchema,
  AUDIT_ACTIONS,
} from './admin.js';
import {
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  messageSchema,
  registerSchema,
  resetPasswordSchema,
  siteSchema,
} from './auth.js';
import {
  createdSchema,
  createReplySchema,
  createThreadSchema,
  directoryUserSchema,
  publicAuthorSchema,
  recentThreadsPageSchema,
  replySchema,
  searchResultsSchema,
  threadCardSchema,
  threadDetailSchema,
  threadFlagsSchema,
  USER_FILTER_MAX,
  userProfileSchema,
  usersPageSchema,
  voteResultSchema,
  voteSchema,
} from './forum.js';
import {
  chatHistorySchema,
  chatMessagePostSchema,
  chatMessageSchema,
  chatPostSchema,
  messagesPageSchema,
  notificationSchema,
  notificationsPageSchema,
  privateMessageSchema,
  sendMessageSchema,
  unreadCountResultSchema,
  unreadCountSchema,
} from './messaging.js';
import { reputationEntrySchema, reputationLedgerPageSchema } from './reputation.js';
import { API, PAGES } from './routes.js';
import { currentUserSchema, errorBodySchema, healthSchema, readySchema } from './schemas.js';
import { ownerClaimSchema, verifyEmailSchema } from './verification.js';
import {
  selectRankSchema,
  setAvatarSchema,
  supportRequestSchema,
  supportResultSchema,
  updateProfileSchema,
  uploadTicketSchema,
} from './settings.js';

/*
 * The API's OpenAPI document, generated from the same zod schemas the backend validates with and the
 * frontends parse with: a route table (API_OPERATIONS) and buildOpenApiDocument, which turns it into
 * OpenAPI 3.1 with zod's own JSON Schema conversion. Request bodies are described as the client sends
 * them (`io: 'input'`: before trims, preprocessing and transforms), responses as the server sends them.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call: anyone, a signed-in member (the session cookie), or an admin. */
export type ApiAuth = 'none' | 'member' | 'admin';

export const API_TAGS = {
  Operations: 'Health and readiness checks',
  Site: 'Public facts about this installation',
  Accounts: 'Registration, sessions and passwords',
  Forum: 'Pastes, replies and votes',
  Members: 'Profiles and the members directory',
  Notifications: "The signed-in member's notifications",
  Messages: 'Private messages and support requests',
  Chat: 'The global chat (live events on the `/ws/chat` WebSocket)',
  Settings: "The signed-in member's profile, rank and avatar",
  Uploads: 'Presigned uploads and stored files (local storage)',
  Admin: 'Moderation, members and the audit log: admins only',
  Docs: 'This documentation',
} as const;
export type ApiTag = keyof typeof API_TAGS;

export interface ApiQueryParameter {
  name: string;
  description: string;
  required?: boolean;
  schema: z.ZodType;
}

export interface ApiResponse {
  status: number;
  description: string;
  /** The JSON body; for another `contentType`, what the body is (a string, say). */
  schema?: z.ZodType;
  /** Default `application/json` when there is a schema. */
  contentType?: string;
  /** Response headers worth naming (a redirect's Location). */
  headers?: Record<string, string>;
}

export interface ApiOperation {
  operationId: string;
  method: HttpMethod;
  /** The OpenAPI path, with `{id}` (or `{key}`) parameters: `API.thread('{id}')`. */
  path: string;
  summary: string;
  description?: string;
  tag: ApiTag;
  auth: ApiAuth;
  /** A JSON request body. */
  body?: z.ZodType;
  /** A request body that is not JSON (a file). */
  rawBody?: { contentType: string; description: string; schema?: Record<string, unknown> };
  query?: readonly ApiQueryParameter[];
  /** The success response, then any other non-error ones (a 503 health report). */
  responses: readonly [ApiResponse, ...ApiResponse[]];
  /** Error statuses beyond those every such route has (401 for members, 403 for admins and writes). */
  errors?: readonly number[];
}

const ID = '{id}';
const UPLOAD_PATH = API.upload('{key}');

const cursor = (what: string): ApiQueryParameter => ({
  name: 'cursor',
  description: `Where the previous page of ${what} ended (its \`nextCursor\`); absent for the first page`,
  schema: z.string(),
});
const nameFilter = (what: string): ApiQueryParameter => ({
  name: 'q',
  description: `Keeps only ${what}`,
  schema: z.string().max(USER_FILTER_MAX),
});

const json = (status: number, description: string, schema: z.ZodType): ApiResponse => ({
  status,
  description,
  schema,
});

const redirect = (to: string, description: string): ApiResponse => ({
  status: 302,
  description,
  headers: { Location: `\`${to}\`` },
});

/** `GET /api/threads/featured`. */
export const threadCardListSchema = z.array(threadCardSchema);

/** Every route of `API`, as the backend's controllers answer it. */
export const API_OPERATIONS: readonly ApiOperation[] = [
  // Operations
  {
    operationId: 'getHealth',
    method: 'get',
    path: API.health,
    summary: 'Liveness: the app answers and reaches its database',
    tag: 'Operations',
    auth: 'none',
    responses: [json(200, 'Up', healthSchema), json(503, 'The database does not answer', healthSchema)],
  },
  {
    operationId: 'getReady',
    method: 'get',
    path: API.ready,
    summary: 'Readiness: PostgreSQL and, when configured, Redis answer',
    tag: 'Operations',
    auth: 'none',
    responses: [json(200, 'Ready', readySchema), json(503, 'A dependency does not answer', readySchema)],
  },
  {
    operationId: 'getSite',
    method: 'get',
    path: API.site,
    summary: 'The product name and other public facts',
    tag: 'Site',
    auth: 'none',
    responses: [json(200, 'The installation', siteSchema)],
  },
  // Accounts
  {
    operationId: 'getCurrentUser',
    method: 'get',
    path: API.currentUser,
    summary: 'The signed-in member',
    tag: 'Accounts',
    auth: 'member',
    responses: [json(200, 'The signed-in member', currentUserSchema)],
  },
  {
    operationId: 'startSession',
    method: 'get',
    path: API.login,
    summary: 'Browser navigation to sign in: redirects to the login page',
    tag: 'Accounts',
    auth: 'none',
    responses: [redirect(PAGES.login, 'To the login page')],
  },
  {
    operationId: 'login',
    method: 'post',
    path: API.login,
    summary: 'Signs in with a username or e-mail address and a password',
    description: 'Sets the session cookie. A banned account is refused with 403.',
    tag: 'Accounts',
    auth: 'none',
    body: loginSchema,
    responses: [json(200, 'Signed in', currentUserSchema)],
    errors: [400, 401, 403, 429],
  },
  {
    operationId: 'logout',
    method: 'get',
    path: API.logout,
    summary: 'Browser navigation to sign out: ends the session, redirects home',
    description:
      'Only a top-level navigation from our own site ends the session (`Sec-Fetch-Dest: document` and ' +
      '`Sec-Fetch-Site: same-origin` or `none`); any other request (an image, a cross-site link) is ' +
      'redirected home with the session left as it was.',
    tag: 'Accounts',
    auth: 'none',
    responses: [redirect(PAGES.landing, 'Signed out, to the landing page')],
  },
  {
    operationId: 'register',
    method: 'post',
    path: API.register,
    summary: 'Creates an account and signs it in',
    tag: 'Accounts',
    auth: 'none',
    body: registerSchema,
    responses: [json(201, 'Registered and signed in', currentUserSchema)],
    errors: [400, 409, 429],
  },
  {
    operationId: 'forgotPassword',
    method: 'post',
    path: API.forgotPassword,
    summary: 'Mails a password-reset link (the same answer whether or not the address has an account)',
    tag: 'Accounts',
    auth: 'none',
    body: forgotPasswordSchema,
    responses: [json(200, 'The link is on its way if the account exists', messageSchema)],
    errors: [400, 429],
  },
  {
    operationId: 'resetPassword',
    method: 'post',
    path: API.resetPassword,
    summary: "Sets a new password with a reset link's token",
    tag: 'Accounts',
    auth: 'none',
    body: resetPasswordSchema,
    responses: [json(200, 'Password reset', messageSchema)],
    errors: [400, 429],
  },
  {
    operationId: 'changePassword',
    method: 'post',
    path: API.changePassword,
    summary: "Changes the signed-in member's password and signs out their other sessions",
    description:
      "The other sessions' live sockets get `signed_out` and are closed. Limited per member and per " +
      'address (RATE_LIMIT_CHANGE_PASSWORD_PER_HOUR): then 429.',
    tag: 'Accounts',
    auth: 'member',
    body: changePasswordSchema,
    responses: [json(200, 'Password changed', messageSchema)],
    errors: [400, 429],
  },
  {
    operationId: 'verifyEmail',
    method: 'post',
    path: API.verifyEmail,
    summary: "Verifies an e-mail address with the mailed link's token (single use, 24 hours)",
    description:
      'Needs no session. Verifying the address of OWNER_EMAIL makes that account the owner and an admin.',
    tag: 'Accounts',
    auth: 'none',
    body: verifyEmailSchema,
    responses: [json(200, 'Verified', messageSchema)],
    errors: [400],
  },
  {
    operationId: 'resendVerificationEmail',
    method: 'post',
    path: API.verifyEmailResend,
    summary: 'Mails the signed-in member a new verification link (older links stop working)',
    tag: 'Accounts',
    auth: 'member',
    responses: [json(200, 'A new link is on its way', messageSchema)],
    errors: [409, 429],
  },
  {
    operationId: 'claimOwner',
    method: 'post',
    path: API.ownerClaim,
    summary: 'Makes the signed-in, verified member the owner with the one-time setup code',
    description:
      'Only without OWNER_EMAIL and while there is no owner. The code is printed in the start-up log ' +
      '(and by `npm run cli -- setup-code`); it works once.',
    tag: 'Accounts',
    auth: 'member',
    body: ownerClaimSchema,
    responses: [json(200, 'The member is now the owner', currentUserSchema)],
    errors: [400, 409, 429],
  },
  // Notifications
  {
    operationId: 'listNotifications',
    method: 'get',
    path: API.notifications,
    summary: 'Notifications, newest first',
    tag: 'Notifications',
    auth: 'member',
    query: [cursor('notifications')],
    responses: [json(200, 'A page of notifications', notificationsPageSchema)],
    errors: [400],
  },
  {
    operationId: 'getUnreadNotificationCount',
    method: 'get',
    path: API.notificationsUnreadCount,
    summary: 'How many notifications are unread (a bare number)',
    tag: 'Notifications',
    auth: 'member',
    responses: [json(200, 'The unread count', unreadCountSchema)],
  },
  {
    operationId: 'markAllNotificationsRead',
    method: 'post',
    path: API.notificationsMarkAllRead,
    summary: 'Marks every notification read',
    tag: 'Notifications',
    auth: 'member',
    responses: [json(200, 'The unread count afterwards', unreadCountResultSchema)],
  },
  {
    operationId: 'markNotificationRead',
    method: 'patch',
    path: API.notificationRead(ID),
    summary: 'Marks one notification read',
    tag: 'Notifications',
    auth: 'member',
    responses: [json(200, 'The unread count afterwards', unreadCountResultSchema)],
    errors: [404],
  },
  // Forum
  {
    operationId: 'getRecentThreads',
    method: 'get',
    path: API.threadsRecent,
    summary: 'Pinned pastes, then the others newest first',
    tag: 'Forum',
    auth: 'none',
    query: [cursor('pastes')],
    responses: [json(200, 'A page of pastes', recentThreadsPageSchema)],
    errors: [400],
  },
  {
    operationId: 'getFeaturedThreads',
    method: 'get',
    path: API.threadsFeatured,
    summary: 'Featured pastes',
    tag: 'Forum',
    auth: 'none',
    responses: [json(200, 'Featured pastes', threadCardListSchema)],
  },
  {
    operationId: 'createThread',
    method: 'post',
    path: API.threads,
    summary: 'Posts a paste',
    tag: 'Forum',
    auth: 'member',
    body: createThreadSchema,
    responses: [json(201, 'Posted', createdSchema)],
    errors: [400, 429],
  },
  {
    operationId: 'getThread',
    method: 'get',
    path: API.thread(ID),
    summary: 'A paste with its replies',
    description: 'Open to visitors; a signed-in member also gets their own votes (`myVote`). Counts a view.',
    tag: 'Forum',
    auth: 'none',
    responses: [json(200, 'The paste', threadDetailSchema)],
    errors: [404],
  },
  {
    operationId: 'getThreadRaw',
    method: 'get',
    path: API.threadRaw(ID),
    summary: "A paste's content as plain text",
    tag: 'Forum',
    auth: 'none',
    responses: [{ status: 200, description: 'The content', schema: z.string(), contentType: 'text/plain' }],
    errors: [404],
  },
  {
    operationId: 'createReply',
    method: 'post',
    path: API.threadReplies(ID),
    summary: 'Replies to a paste (or to a reply: `parentId`)',
    description: 'A locked paste takes replies from admins only (403).',
    tag: 'Forum',
    auth: 'member',
    body: createReplySchema,
    responses: [json(201, 'Posted', createdSchema)],
    errors: [400, 404, 429],
  },
  {
    operationId: 'vote',
    method: 'post',
    path: API.votes,
    summary: 'Votes on a paste or a reply; the same vote again takes it back',
    tag: 'Forum',
    auth: 'member',
    body: voteSchema,
    responses: [json(200, 'The vote in force and the new score', voteResultSchema)],
    errors: [400, 404, 429],
  },
  {
    operationId: 'search',
    method: 'get',
    path: API.search,
    summary: 'Searches pastes, by relevance then recency',
    tag: 'Forum',
    auth: 'none',
    query: [
      { name: 'q', description: 'The words to look for', required: true, schema: z.string().min(1) },
      { name: 'page', description: 'Page number, from 1', schema: z.string().regex(/^\d{1,6}$/) },
    ],
    responses: [json(200, 'A page of results', searchResultsSchema)],
    errors: [400],
  },
  // Members
  {
    operationId: 'listUsers',
    method: 'get',
    path: API.users,
    summary: 'The members directory, by reputation',
    tag: 'Members',
    auth: 'member',
    query: [nameFilter('members whose username contains this'), cursor('members')],
    responses: [json(200, 'A page of members', usersPageSchema)],
    errors: [400],
  },
  {
    operationId: 'getUser',
    method: 'get',
    path: API.user(ID),
    summary: "A member's public profile and recent pastes",
    tag: 'Members',
    auth: 'none',
    responses: [json(200, 'The profile', userProfileSchema)],
    errors: [404],
  },
  {
    operationId: 'getUserReputation',
    method: 'get',
    path: API.userReputation(ID),
    summary: "A member's reputation ledger, newest first",
    description:
      'Every point earned or lost with its reason (paste, reply, chat, vote received or withdrawn), what was earned today against the daily caps, and the total. For the member themself and admins only (403).',
    tag: 'Members',
    auth: 'member',
    query: [cursor('ledger rows')],
    responses: [json(200, 'A page of the ledger', reputationLedgerPageSchema)],
    errors: [400, 403, 404],
  },
  // Settings
  {
    operationId: 'updateProfile',
    method: 'put',
    path: API.userProfile,
    summary: 'Updates first name, last name and bio (an empty one clears it)',
    tag: 'Settings',
    auth: 'member',
    body: updateProfileSchema,
    responses: [json(200, 'The member afterwards', currentUserSchema)],
    errors: [400],
  },
  {
    operationId: 'setAvatar',
    method: 'put',
    path: API.userAvatar,
    summary: 'Makes an uploaded image the avatar',
    tag: 'Settings',
    auth: 'member',
    body: setAvatarSchema,
    responses: [json(200, 'The member afterwards', currentUserSchema)],
    errors: [400],
  },
  {
    operationId: 'selectRank',
    method: 'post',
    path: API.userSelectRank,
    summary: 'Wears one of the owned premium ranks (null: the reputation rank)',
    tag: 'Settings',
    auth: 'member',
    body: selectRankSchema,
    responses: [json(200, 'The member afterwards', currentUserSchema)],
    errors: [400],
  },
  {
    operationId: 'createUploadUrl',
    method: 'post',
    path: API.objectsUpload,
    summary: 'A presigned form to upload a new avatar file with',
    description:
      'POST `uploadURL` (the bucket with S3, else `/api/uploads`) a multipart/form-data body: each of ' +
      '`fields` as is, then the file in the field `file`, last. The form is signed for one key, at most ' +
      '10 MB and its Content-Type; it is valid 15 minutes. Then `PUT /api/user/avatar` with `objectURL`.',
    tag: 'Settings',
    auth: 'member',
    responses: [json(200, 'The upload form', uploadTicketSchema)],
    errors: [429, 503],
  },
  // Messages
  {
    operationId: 'listInbox',
    method: 'get',
    path: API.messages,
    summary: 'The inbox, newest first',
    tag: 'Messages',
    auth: 'member',
    query: [cursor('messages')],
    responses: [json(200, 'A page of messages', messagesPageSchema)],
    errors: [400],
  },
  {
    operationId: 'listSentMessages',
    method: 'get',
    path: API.messagesSent,
    summary: 'Sent messages, newest first',
    tag: 'Messages',
    auth: 'member',
    query: [cursor('messages')],
    responses: [json(200, 'A page of messages', messagesPageSchema)],
    errors: [400],
  },
  {
    operationId: 'sendMessage',
    method: 'post',
    path: API.messages,
    summary: 'Sends a private message (recipientEmail: an e-mail address or a username)',
    tag: 'Messages',
    auth: 'member',
    body: sendMessageSchema,
    responses: [json(201, 'Sent', privateMessageSchema)],
    errors: [400, 404, 429],
  },
  {
    operationId: 'markMessageRead',
    method: 'patch',
    path: API.messageRead(ID),
    summary: 'Marks a received message read',
    tag: 'Messages',
    auth: 'member',
    responses: [json(200, 'The message', privateMessageSchema)],
    errors: [404],
  },
  {
    operationId: 'sendSupportRequest',
    method: 'post',
    path: API.support,
    summary: 'Writes to the staff: a private message to the owner and every admin',
    tag: 'Messages',
    auth: 'member',
    body: supportRequestSchema,
    responses: [json(201, 'How many staff members got it', supportResultSchema)],
    errors: [400, 409, 429],
  },
  // Chat
  {
    operationId: 'getChat',
    method: 'get',
    path: API.chat,
    summary: 'The latest chat messages, newest first (popover)',
    tag: 'Chat',
    auth: 'member',
    responses: [json(200, 'The latest messages', chatHistorySchema)],
  },
  {
    operationId: 'postChat',
    method: 'post',
    path: API.chat,
    summary: 'Posts to the chat (popover: `message`)',
    tag: 'Chat',
    auth: 'member',
    body: chatPostSchema,
    responses: [json(201, 'Posted', chatMessageSchema)],
    errors: [400, 429],
  },
  {
    operationId: 'getChatMessages',
    method: 'get',
    path: API.chatMessages,
    summary: 'The latest chat messages, newest first (chat page)',
    tag: 'Chat',
    auth: 'member',
    responses: [json(200, 'The latest messages', chatHistorySchema)],
  },
  {
    operationId: 'postChatMessage',
    method: 'post',
    path: API.chatMessages,
    summary: 'Posts to the chat (chat page: `content`)',
    tag: 'Chat',
    auth: 'member',
    body: chatMessagePostSchema,
    responses: [json(201, 'Posted', chatMessageSchema)],
    errors: [400, 429],
  },
  // Uploads
  {
    operationId: 'uploadObject',
    method: 'post',
    path: API.uploads,
    summary: 'Receives an avatar file with a presigned upload form (local storage only)',
    description:
      'The form is what `POST /api/objects/upload` hands out, as S3 takes a presigned POST: its signature ' +
      'authorizes the upload, so neither a session nor an Origin header is needed. The fields come as ' +
      'signed, then the file in `file`, last: a PNG, JPEG, GIF or WebP image (told by its bytes) within ' +
      'the signed size. 409 while an earlier upload with the form is there unclaimed.',
    tag: 'Uploads',
    auth: 'none',
    rawBody: {
      contentType: 'multipart/form-data',
      description: 'The signed fields, then the image file',
      schema: {
        type: 'object',
        required: ['key', 'Content-Type', 'expires', 'max', 'signature', 'file'],
        properties: {
          key: { type: 'string', description: 'The pending object key (`pending/<userId>/<random>`)' },
          'Content-Type': { type: 'string', description: 'As signed (`application/octet-stream`)' },
          expires: { type: 'string', description: 'When the form expires (Unix seconds)' },
          max: { type: 'string', description: 'The largest file allowed, in bytes' },
          signature: { type: 'string', description: 'The signature of the four fields above' },
          file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The image' },
        },
      },
    },
    responses: [{ status: 204, description: 'Stored' }],
    errors: [400, 403, 409, 413, 415],
  },
  {
    operationId: 'getObject',
    method: 'get',
    path: UPLOAD_PATH,
    summary: 'An avatar (local storage only), with the type its bytes tell',
    tag: 'Uploads',
    auth: 'none',
    responses: [{ status: 200, description: 'The file', schema: z.string(), contentType: 'image/*' }],
    errors: [404],
  },
  // Admin
  {
    operationId: 'pinThread',
    method: 'post',
    path: API.adminThreadPin(ID),
    summary: 'Pins or unpins a paste',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'The flags afterwards', threadFlagsSchema)],
    errors: [404],
  },
  {
    operationId: 'lockThread',
    method: 'post',
    path: API.adminThreadLock(ID),
    summary: 'Locks or unlocks a paste',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'The flags afterwards', threadFlagsSchema)],
    errors: [404],
  },
  {
    operationId: 'featureThread',
    method: 'post',
    path: API.adminThreadFeatured(ID),
    summary: 'Features or unfeatures a paste',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'The flags afterwards', threadFlagsSchema)],
    errors: [404],
  },
  {
    operationId: 'deleteThread',
    method: 'delete',
    path: API.adminThread(ID),
    summary: 'Deletes a paste and its replies',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'Deleted', messageSchema)],
    errors: [404],
  },
  {
    operationId: 'deleteReply',
    method: 'delete',
    path: API.adminReply(ID),
    summary: 'Deletes a reply',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'Deleted', messageSchema)],
    errors: [404],
  },
  {
    operationId: 'adminListUsers',
    method: 'get',
    path: API.adminUsers,
    summary: 'Members with their e-mail addresses, newest first',
    tag: 'Admin',
    auth: 'admin',
    query: [nameFilter('members whose username or e-mail address contains this'), cursor('members')],
    responses: [json(200, 'A page of members', adminUsersPageSchema)],
    errors: [400],
  },
  {
    operationId: 'banUser',
    method: 'post',
    path: API.adminUserBan(ID),
    summary: 'Bans a member (their sessions end at once)',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'The member afterwards', adminUserSchema)],
    errors: [404],
  },
  {
    operationId: 'unbanUser',
    method: 'post',
    path: API.adminUserUnban(ID),
    summary: 'Lifts a ban',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'The member afterwards', adminUserSchema)],
    errors: [404],
  },
  {
    operationId: 'deleteUser',
    method: 'delete',
    path: API.adminUser(ID),
    summary: 'Deletes an account (their posts stay, as Anonymous)',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'Deleted', messageSchema)],
    errors: [404],
  },
  {
    operationId: 'renameUser',
    method: 'put',
    path: API.adminUserUsername(ID),
    summary: "Changes a member's username (registration's rules apply)",
    tag: 'Admin',
    auth: 'admin',
    body: adminRenameSchema,
    responses: [json(200, 'The member afterwards', adminUserSchema)],
    errors: [400, 404, 409],
  },
  {
    operationId: 'deleteUserAvatar',
    method: 'delete',
    path: API.adminUserAvatar(ID),
    summary: "Removes a member's avatar",
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'The member afterwards', adminUserSchema)],
    errors: [400, 404],
  },
  {
    operationId: 'setUserGrades',
    method: 'put',
    path: API.adminUserGrades(ID),
    summary: 'Sets the premium grades a member owns',
    tag: 'Admin',
    auth: 'admin',
    body: adminGradesSchema,
    responses: [json(200, 'The member afterwards', adminUserSchema)],
    errors: [400, 404],
  },
  {
    operationId: 'setUserAdmin',
    method: 'put',
    path: API.adminUserRole(ID),
    summary: 'Grants or revokes admin (the owner only)',
    tag: 'Admin',
    auth: 'admin',
    body: adminRoleSchema,
    responses: [json(200, 'The member afterwards', adminUserSchema)],
    errors: [400, 404],
  },
  {
    operationId: 'getAuditLog',
    method: 'get',
    path: API.adminAudit,
    summary: 'The staff action log, newest first',
    tag: 'Admin',
    auth: 'admin',
    query: [
      { name: 'action', description: 'Keeps only this action', schema: z.enum(AUDIT_ACTIONS) },
      nameFilter('entries whose actor or target name contains this'),
      cursor('entries'),
    ],
    responses: [json(200, 'A page of entries', auditPageSchema)],
    errors: [400],
  },
  {
    operationId: 'getQueueDashboard',
    method: 'get',
    path: API.adminQueues,
    summary: "The operators' queue dashboard (bull-board): mail and notification jobs, retry of failed ones",
    description: 'Only with REDIS_URL (404 without: the jobs then run inside the API process).',
    tag: 'Admin',
    auth: 'admin',
    responses: [
      { status: 200, description: 'The dashboard page', schema: z.string(), contentType: 'text/html' },
    ],
    errors: [404],
  },
  // Docs
  {
    operationId: 'getApiDocs',
    method: 'get',
    path: API.docs,
    summary: 'This documentation, as a page',
    tag: 'Docs',
    auth: 'none',
    responses: [{ status: 200, description: 'The page', schema: z.string(), contentType: 'text/html' }],
  },
  {
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: API.openApi,
    summary: 'This OpenAPI document',
    tag: 'Docs',
    auth: 'none',
    responses: [json(200, 'The OpenAPI 3.1 document', z.record(z.string(), z.unknown()))],
  },
];

/** Component names of the schemas the operations use: responses as sent, bodies as received. */
const RESPONSE_COMPONENTS: ReadonlyArray<readonly [z.ZodType, string]> = [
  [errorBodySchema, 'Error'],
  [healthSchema, 'Health'],
  [readySchema, 'Ready'],
  [siteSchema, 'Site'],
  [messageSchema, 'Message'],
  [currentUserSchema, 'CurrentUser'],
  [publicAuthorSchema, 'PublicAuthor'],
  [threadCardSchema, 'ThreadCard'],
  [threadCardListSchema, 'ThreadCardList'],
  [replySchema, 'Reply'],
  [threadDetailSchema, 'ThreadDetail'],
  [recentThreadsPageSchema, 'RecentThreadsPage'],
  [searchResultsSchema, 'SearchResults'],
  [createdSchema, 'Created'],
  [voteResultSchema, 'VoteResult'],
  [userProfileSchema, 'UserProfile'],
  [directoryUserSchema, 'DirectoryUser'],
  [usersPageSchema, 'UsersPage'],
  [reputationEntrySchema, 'ReputationEntry'],
  [reputationLedgerPageSchema, 'ReputationLedgerPage'],
  [threadFlagsSchema, 'ThreadFlags'],
  [notificationSchema, 'Notification'],
  [notificationsPageSchema, 'NotificationsPage'],
  [unreadCountSchema, 'UnreadCount'],
  [unreadCountResultSchema, 'UnreadCountResult'],
  [privateMessageSchema, 'PrivateMessage'],
  [messagesPageSchema, 'MessagesPage'],
  [chatMessageSchema, 'ChatMessage'],
  [chatHistorySchema, 'ChatHistory'],
  [uploadTicketSchema, 'UploadTicket'],
  [supportResultSchema, 'SupportResult'],
  [adminUserSchema, 'AdminUser'],
  [adminUsersPageSchema, 'AdminUsersPage'],
  [auditEntrySchema, 'AuditEntry'],
  [auditPageSchema, 'AuditPage'],
];

const REQUEST_COMPONENTS: ReadonlyArray<readonly [z.ZodType, string]> = [
  [registerSchema, 'RegisterBody'],
  [loginSchema, 'LoginBody'],
  [forgotPasswordSchema, 'ForgotPasswordBody'],
  [resetPasswordSchema, 'ResetPasswordBody'],
  [changePasswordSchema, 'ChangePasswordBody'],
  [verifyEmailSchema, 'VerifyEmailBody'],
  [ownerClaimSchema, 'OwnerClaimBody'],
  [createThreadSchema, 'CreateThreadBody'],
  [createReplySchema, 'CreateReplyBody'],
  [voteSchema, 'VoteBody'],
  [updateProfileSchema, 'UpdateProfileBody'],
  [setAvatarSchema, 'SetAvatarBody'],
  [selectRankSchema, 'SelectRankBody'],
  [sendMessageSchema, 'SendMessageBody'],
  [supportRequestSchema, 'SupportRequestBody'],
  [chatPostSchema, 'ChatPostBody'],
  [chatMessagePostSchema, 'ChatMessagePostBody'],
  [adminRenameSchema, 'AdminRenameBody'],
  [adminGradesSchema, 'AdminGradesBody'],
  [adminRoleSchema, 'AdminRoleBody'],
];

/** The session cookie the backend sets (`termpaste.sid`). */
export const SESSION_COOKIE_NAME = 'termpaste.sid';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: the message names the field or the problem',
  401: 'Not signed in (a banned account counts as signed out)',
  403: 'Refused: a cross-site request, a banned account, or not allowed',
  404: 'Not found',
  409: 'Already taken',
  413: 'Too large',
  415: 'Not an accepted image type',
  429: 'Too many attempts: try again later',
  503: 'A service the call needs is unavailable',
};

const STATE_CHANGING: ReadonlySet<HttpMethod> = new Set(['post', 'put', 'patch', 'delete']);

/** A JSON Schema as OpenAPI 3.1 takes it. */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocumentOptions {
  productName: string;
  version: string;
  /** Where the API is served (PUBLIC_URL). */
  serverUrl: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<HttpMethod, Record<string, unknown>>>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

const COMPONENTS_PREFIX = '#/components/schemas/';

/** Drops what a schema inside an OpenAPI document must not carry (`$schema`; `$id`, which zod sets from the uri). */
function bare(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** The named schemas of one direction, with `$ref`s between them, and a lookup of their names. */
function components(entries: ReadonlyArray<readonly [z.ZodType, string]>, io: 'input' | 'output') {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of entries) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    uri: (id) => `${COMPONENTS_PREFIX}${id}`,
    unrepresentable: 'throw',
  });
  const names = new Map(entries.map(([schema, id]) => [schema, id]));
  return {
    schemas: Object.fromEntries(
      Object.entries(schemas).map(([id, schema]) => [id, bare(schema as JsonSchema)]),
    ),
    /** A `$ref` to the schema's component, or the schema inline when it has none. */
    ref: (schema: z.ZodType): JsonSchema => {
      const name = names.get(schema);
      if (name !== undefined) return { $ref: `${COMPONENTS_PREFIX}${name}` };
      return bare(z.toJSONSchema(schema, { io, unrepresentable: 'throw' }) as JsonSchema);
    },
  };
}

function pathParameters(path: string): Record<string, unknown>[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) =>
    name === 'id'
      ? { name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }
      : {
          name,
          in: 'path',
          required: true,
          description: 'The object key (may contain `/`)',
          schema: { type: 'string' },
        },
  );
}

/** The OpenAPI 3.1 document of the whole API. */
export function buildOpenApiDocument({
  productName,
  version,
  serverUrl,
}: OpenApiDocumentOptions): OpenApiDocument {
  const requests = components(REQUEST_COMPONENTS, 'input');
  const responses = components(RESPONSE_COMPONENTS, 'output');
  const errorRef = responses.ref(errorBodySchema);
  const paths: OpenApiDocument['paths'] = {};

  for (const op of API_OPERATIONS) {
    const errors = new Set(op.errors ?? []);
    if (op.auth !== 'none') errors.add(401);
    if (op.auth === 'admin' || (STATE_CHANGING.has(op.method) && op.path !== UPLOAD_PATH)) errors.add(403);

    const parameters = [
      ...pathParameters(op.path),
      ...(op.query ?? []).map((param) => ({
        name: param.name,
        in: 'query',
        required: param.required ?? false,
        description: param.description,
        schema: requests.ref(param.schema),
      })),
    ];

    const operation: Record<string, unknown> = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      security: op.auth === 'none' ? [] : [{ session: [] }],
      ...(parameters.length > 0 ? { parameters } : {}),
    };
    if (op.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: requests.ref(op.body) } },
      };
    } else if (op.rawBody) {
      operation.requestBody = {
        required: true,
        description: op.rawBody.description,
        content: {
          [op.rawBody.contentType]: {
            schema: op.rawBody.schema ?? { type: 'string', contentMediaType: op.rawBody.contentType },
          },
        },
      };
    }

    const documented: Record<string, unknown> = {};
    for (const response of op.responses) {
      documented[String(response.status)] = {
        description: response.description,
        ...(response.headers
          ? {
              headers: Object.fromEntries(
                Object.entries(response.headers).map(([name, description]) => [
                  name,
                  { description, schema: { type: 'string' } },
                ]),
              ),
            }
          : {}),
        ...(response.schema
          ? {
              content: {
                [response.contentType ?? 'application/json']: { schema: responses.ref(response.schema) },
              },
            }
          : {}),
      };
    }
    for (const status of [...errors].sort((a, b) => a - b)) {
      documented[String(status)] ??= {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/json': { schema: errorRef } },
      };
    }
    operation.responses = documented;
    (paths[op.path] ??= {})[op.method] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: `${productName} API`,
      version,
      description: [
        `The HTTP API of ${productName}, generated from the zod schemas the server validates with.`,
        '',
        `Signing in (\`POST ${API.login}\` or \`POST ${API.register}\`) sets the \`${SESSION_COOKIE_NAME}\` session ` +
          'cookie, which authorizes the calls marked with the session scheme.',
        'Calls that change state (POST, PUT, PATCH, DELETE) must come from the site itself: their `Origin` ' +
          'header (or, absent it, their `Referer`) must be its origin, else they are refused with 403.',
        'Every error has the same body: `{ "statusCode": …, "message": "…" }`.',
      ].join('\n'),
    },
    servers: [{ url: serverUrl }],
    tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: { ...responses.schemas, ...requests.schemas },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE_NAME,
          description: 'The session cookie set by signing in',
        },
      },
    },
  };
}
