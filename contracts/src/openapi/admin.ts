import { adminDeleteUserQuerySchema } from '../account.js';
import { z } from 'zod';
import {
  adminRanksSchema,
  adminRenameSchema,
  adminRoleSchema,
  adminUserSchema,
  adminUsersPageSchema,
  auditPageSchema,
  trashPageSchema,
} from '../admin.js';
import { messageSchema } from '../auth.js';
import { banTermsSchema, silenceBodySchema } from '../moderation.js';
import { pasteDetailSchema, pasteFlagsSchema } from '../paste-views.js';
import { adminUsersQuerySchema, auditQuerySchema, cursorQuerySchema } from '../queries.js';
import { API } from '../routes.js';
import { type ApiOperation, ID, json } from './operation.js';

/** The Admin routes of API_OPERATIONS. */
export const ADMIN_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'pinThread',
    method: 'post',
    path: API.adminThreadPin(ID),
    summary: 'Pins or unpins a paste',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'The flags afterwards', pasteFlagsSchema)],
    errors: [404],
  },
  {
    operationId: 'lockThread',
    method: 'post',
    path: API.adminThreadLock(ID),
    summary: 'Locks or unlocks a paste',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'The flags afterwards', pasteFlagsSchema)],
    errors: [404],
  },
  {
    operationId: 'featureThread',
    method: 'post',
    path: API.adminThreadFeatured(ID),
    summary: 'Features or unfeatures a paste',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'The flags afterwards', pasteFlagsSchema)],
    errors: [404],
  },
  {
    operationId: 'adminReadThread',
    method: 'get',
    path: API.adminThread(ID),
    summary: 'Reads a paste by its number or key to moderate it (a private one is audit-logged)',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'The paste', pasteDetailSchema)],
    errors: [404],
  },
  {
    operationId: 'deleteThread',
    method: 'delete',
    path: API.adminThread(ID),
    summary: 'Deletes a paste and its replies (to the trash)',
    description:
      'Recorded in the audit log; the paste lies in the trash for 30 days, where staff can restore it.',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'Deleted', messageSchema)],
    errors: [404],
  },
  {
    operationId: 'deleteReply',
    method: 'delete',
    path: API.adminReply(ID),
    summary: 'Deletes a reply and the replies under it (to the trash)',
    description:
      'Recorded in the audit log; they lie in the trash for 30 days, where staff can restore them.',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'Deleted', messageSchema)],
    errors: [404],
  },
  {
    operationId: 'getTrash',
    method: 'get',
    path: API.adminTrash,
    summary: 'Pastes and replies deleted in the last 30 days, newest first',
    tag: 'Admin',
    auth: 'admin',
    query: cursorQuerySchema,
    responses: [json(200, 'A page of the trash', trashPageSchema)],
    errors: [400],
  },
  {
    operationId: 'restoreThread',
    method: 'post',
    path: API.adminThreadRestore(ID),
    summary: 'Restores a paste from the trash',
    description:
      'Its counts and the reputation it earned come back; recorded in the audit log. 404 for a paste not ' +
      'in the trash (or already removed for good).',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'Restored', messageSchema)],
    errors: [404],
  },
  {
    operationId: 'restoreReply',
    method: 'post',
    path: API.adminReplyRestore(ID),
    summary: 'Restores a reply from the trash',
    description:
      'With the replies the same deletion took under it. Its counts and the reputation it earned come ' +
      'back; recorded in the audit log. 404 for a reply not in the trash, or whose paste is not alive.',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'Restored', messageSchema)],
    errors: [404],
  },
  {
    operationId: 'adminListUsers',
    method: 'get',
    path: API.adminUsers,
    summary: 'Members with their e-mail addresses, newest first',
    tag: 'Admin',
    auth: 'admin',
    query: adminUsersQuerySchema,
    responses: [json(200, 'A page of members', adminUsersPageSchema)],
    errors: [400],
  },
  {
    operationId: 'banUser',
    method: 'post',
    path: API.adminUserBan(ID),
    summary: 'Bans a member, for ever or for a number of days, with a reason (their sessions end at once)',
    description:
      'An empty payload bans for ever without a reason, as before. `days` (1 to 3650) ends the ban by ' +
      'itself then (a job lifts it; MODERATION_TIME_SCALE shortens days for tests); `reason` (at most 500 ' +
      'characters) is mailed to the member with the duration, and shown when they try to sign in. A ' +
      "member already banned gets the new terms. The owner-only rule applies to admins' accounts.",
    tag: 'Admin',
    auth: 'admin',
    body: banTermsSchema,
    bodyOptional: true,
    responses: [json(200, 'The member afterwards', adminUserSchema)],
    errors: [400, 404],
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
    operationId: 'silenceUser',
    method: 'post',
    path: API.adminUserSilence(ID),
    summary: 'Silences a member for a number of days, with a reason: they read and contact support only',
    description:
      'Every write but a support request is refused with 403 and the end and reason, until the silence ' +
      'ends (a job lifts it). The member is mailed the duration and the reason. New terms replace a ' +
      "silence in force. The owner-only rule applies to admins' accounts.",
    tag: 'Admin',
    auth: 'admin',
    body: silenceBodySchema,
    responses: [json(200, 'The member afterwards', adminUserSchema)],
    errors: [400, 404],
  },
  {
    operationId: 'unsilenceUser',
    method: 'post',
    path: API.adminUserUnsilence(ID),
    summary: 'Lifts a silence',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'The member afterwards', adminUserSchema)],
    errors: [404],
  },
  {
    operationId: 'deleteSpammer',
    method: 'post',
    path: API.adminUserSpammer(ID),
    summary: 'Deletes a spammer: the account, their pastes, replies and chat messages, in one step',
    description:
      "As deleting the account without keeping its content, audited as a spammer's deletion; the " +
      'address is remembered as a SHA-256 hash of its lower-cased form, and its domain (unless a common ' +
      'mail provider such as gmail.com), for the spam signals of new posts. Same rules as deleting.',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'Deleted', messageSchema)],
    errors: [404],
  },
  {
    operationId: 'deleteUser',
    method: 'delete',
    path: API.adminUser(ID),
    summary: 'Deletes an account (by default their posts stay, as Anonymous)',
    description:
      "As the member's own deletion: sessions, tokens, identities, votes (scores taken back), messages and " +
      'notifications go, and the e-mail address is kept nowhere (audit log included). `keepContent=false` ' +
      'deletes their pastes and replies too; private pastes go either way.',
    tag: 'Admin',
    auth: 'admin',
    query: adminDeleteUserQuerySchema,
    responses: [json(200, 'Deleted', messageSchema)],
    errors: [400, 404],
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
    body: adminRanksSchema,
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
    query: auditQuerySchema,
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
];
