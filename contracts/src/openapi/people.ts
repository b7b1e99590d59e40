import { peopleListSchema, personEntrySchema } from '../people.js';
import { API } from '../routes.js';
import { type ApiOperation, ID, json } from './operation.js';

const LIST_DESCRIPTION =
  'Newest first, at most PEOPLE_LIST_MAX (1000). A personal access token reads it with `private:read`.';

/** PUT and POST (the same call) of one list. */
function addOperations(list: 'mute' | 'block', path: string): ApiOperation[] {
  const summary =
    list === 'mute'
      ? "Mutes a member: their pastes, replies and chat messages are collapsed on the member's screens"
      : 'Blocks a member: they cannot send private messages to, or mention, the member; their posts are hidden';
  const description =
    '200 with the entry; again is no change (the entry as it was). 400 for oneself, ' +
    (list === 'block' ? 'for staff (admins and the owner: they always reach members), ' : '') +
    'or a list already holding 1000 members; 404 for a member who does not exist. Signed in, not ' +
    'banned; an unverified address may. No personal access token.';
  const name = list === 'mute' ? 'Mute' : 'Block';
  return (['put', 'post'] as const).map((method) => ({
    operationId: `${list}Member${method === 'post' ? 'ByPost' : ''}`,
    method,
    path,
    summary: method === 'put' ? summary : `${summary} (the same as PUT)`,
    description,
    tag: 'Settings',
    auth: 'member',
    token: false,
    responses: [json(200, `${name}d: the entry`, personEntrySchema)],
    errors: [400, 404],
  }));
}

/** The member's mutes and blocks, routes of API_OPERATIONS. */
export const PEOPLE_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'listMutes',
    method: 'get',
    path: API.userMutes,
    summary: 'The members the member muted',
    description: LIST_DESCRIPTION,
    tag: 'Settings',
    auth: 'member',
    responses: [json(200, 'The muted members', peopleListSchema)],
  },
  ...addOperations('mute', API.userMute(ID)),
  {
    operationId: 'unmuteMember',
    method: 'delete',
    path: API.userMute(ID),
    summary: 'Unmutes a member (204 also when they were not muted)',
    tag: 'Settings',
    auth: 'member',
    token: false,
    responses: [{ status: 204, description: 'Not muted' }],
  },
  {
    operationId: 'listBlocks',
    method: 'get',
    path: API.userBlocks,
    summary: 'The members the member blocked',
    description: LIST_DESCRIPTION,
    tag: 'Settings',
    auth: 'member',
    responses: [json(200, 'The blocked members', peopleListSchema)],
  },
  ...addOperations('block', API.userBlock(ID)),
  {
    operationId: 'unblockMember',
    method: 'delete',
    path: API.userBlock(ID),
    summary: 'Unblocks a member (204 also when they were not blocked)',
    tag: 'Settings',
    auth: 'member',
    token: false,
    responses: [{ status: 204, description: 'Not blocked' }],
  },
];
