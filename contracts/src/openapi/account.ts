import {
  deleteAccountSchema,
  deleteConfirmSchema,
  exportDownloadQuerySchema,
  exportQueuedSchema,
  exportStatusSchema,
} from '../account.js';
import { messageSchema } from '../auth.js';
import { API } from '../routes.js';
import { type ApiOperation, ID, json } from './operation.js';

/** The member's own account (export, deletion) in API_OPERATIONS: session only, never a token. */
export const ACCOUNT_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'requestExport',
    method: 'post',
    path: API.userExport,
    summary: 'Queues an export of all the member’s data (one a day); a link is mailed when it is ready',
    description:
      'One zip of JSON files (profile, pastes with every version, replies, messages sent and received, ' +
      'notifications, votes, reputation ledger, tokens without secrets, linked providers) and the avatar. ' +
      '429 with Retry-After within 24 hours of the last export that did not fail.',
    tag: 'Settings',
    auth: 'member',
    token: false,
    responses: [json(202, 'Queued', exportQueuedSchema)],
    errors: [429],
  },
  {
    operationId: 'exportStatus',
    method: 'get',
    path: API.userExport,
    summary: 'The state of the member’s newest export, and its link while ready',
    tag: 'Settings',
    auth: 'member',
    token: false,
    responses: [json(200, 'The export', exportStatusSchema)],
  },
  {
    operationId: 'downloadExport',
    method: 'get',
    path: API.userExportDownload(ID),
    summary: 'The export archive, by the signed link (`expires`, `signature`) of its member, 24 hours',
    description:
      'Works only with the session of the member it was made for (404 otherwise); 410 once expired.',
    tag: 'Settings',
    auth: 'member',
    token: false,
    query: exportDownloadQuerySchema,
    responses: [{ status: 200, description: 'The zip', contentType: 'application/zip' }],
    errors: [404, 410],
  },
  {
    operationId: 'deleteAccount',
    method: 'delete',
    path: API.userAccount,
    summary: 'Deletes the member’s account; `keepContent` keeps their pastes and replies as Anonymous',
    description:
      'Needs `password` (400 missing, 403 wrong); the owner cannot (403). As many tries an hour as password ' +
      'changes, per member and per address (429). A member without a password ' +
      '(signed up through a provider) gets 202 and a mailed link instead, confirmed by ' +
      '`POST /api/user/delete-confirm`. Private pastes are deleted either way.',
    tag: 'Settings',
    auth: 'member',
    token: false,
    body: deleteAccountSchema,
    responses: [
      { status: 204, description: 'Deleted: the session ended' },
      json(202, 'A confirmation link was mailed', messageSchema),
    ],
    errors: [400, 403, 429],
  },
  {
    operationId: 'confirmDeleteAccount',
    method: 'post',
    path: API.userDeleteConfirm,
    summary: 'Deletes the account a mailed deletion link names (once, within 1 hour)',
    tag: 'Settings',
    auth: 'none',
    token: false,
    body: deleteConfirmSchema,
    responses: [{ status: 204, description: 'Deleted' }],
    errors: [400, 403],
  },
];
