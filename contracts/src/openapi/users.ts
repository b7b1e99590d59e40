import { userProfileSchema, usersPageSchema } from '../paste-views.js';
import { reputationLedgerPageSchema } from '../reputation.js';
import { cursorQuerySchema, usersQuerySchema } from '../queries.js';
import { API } from '../routes.js';
import { type ApiOperation, ID, json } from './operation.js';

/** The Members routes of API_OPERATIONS. */
export const USERS_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'listUsers',
    method: 'get',
    path: API.users,
    summary: 'The members directory, by reputation',
    tag: 'Members',
    auth: 'member',
    token: 'read',
    query: usersQuerySchema,
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
    query: cursorQuerySchema,
    responses: [json(200, 'A page of the ledger', reputationLedgerPageSchema)],
    errors: [400, 403, 404],
  },
];
