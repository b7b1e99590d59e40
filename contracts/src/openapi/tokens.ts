import { API } from '../routes.js';
import { createdTokenSchema, createTokenSchema, tokenListSchema } from '../tokens.js';
import { type ApiOperation, ID, json } from './operation.js';

/** The personal access token routes of API_OPERATIONS: session only, a token cannot manage tokens. */
export const TOKENS_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'listTokens',
    method: 'get',
    path: API.userTokens,
    summary: "The member's personal access tokens, newest first (never their secrets)",
    description:
      'Revoked tokens stay listed for 30 days with `revokedAt` and `revokedReason` (`password reset`, ' +
      '`password change`, `by you` or `ban`); a password reset or change revokes every token of the member.',
    tag: 'Settings',
    auth: 'member',
    token: false,
    responses: [json(200, 'The tokens', tokenListSchema)],
  },
  {
    operationId: 'createToken',
    method: 'post',
    path: API.userTokens,
    summary: 'Makes a personal access token: answered once, in `token`',
    description:
      'At most 20 unexpired, unrevoked tokens a member (409 beyond). Needs a verified e-mail address (403 ' +
      'otherwise). `expiresInDays`: 1 to 365, null for never, absent for 30. Send the token as ' +
      '`Authorization: Bearer tp_…`.',
    tag: 'Settings',
    auth: 'member',
    token: false,
    body: createTokenSchema,
    responses: [json(201, 'The token, with its secret', createdTokenSchema)],
    errors: [400, 403, 409],
  },
  {
    operationId: 'revokeToken',
    method: 'delete',
    path: API.userToken(ID),
    summary: "Revokes one of the member's tokens: it stops working at once (listed as revoked `by you`)",
    tag: 'Settings',
    auth: 'member',
    token: false,
    responses: [{ status: 204, description: 'Revoked' }],
    errors: [404],
  },
];
