import { z } from 'zod';
import { API } from '../routes.js';
import { addSshKeySchema, sshKeyListSchema, sshKeySchema } from '../signing.js';
import { type ApiOperation, ID, json } from './operation.js';

/** Members' SSH keys and pastes' signatures: managed with a session only, read by anyone. */
export const SIGNING_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'listSshKeys',
    method: 'get',
    path: API.userKeys,
    summary: "The member's SSH public keys, oldest first, with their `SHA256:` fingerprints",
    tag: 'Settings',
    auth: 'member',
    token: false,
    responses: [json(200, 'The keys', sshKeyListSchema)],
  },
  {
    operationId: 'addSshKey',
    method: 'post',
    path: API.userKeys,
    summary: 'Adds an SSH public key: pastes signed with it show VERIFIED',
    description:
      'One `authorized_keys` line (`ssh-ed25519 AAAA… comment`; also `ssh-rsa` of 2048 bits or more, ' +
      '`ecdsa-sha2-nistp256/384/521` and the `sk-` security-key types). The key is read and checked: its ' +
      'base64 blob must hold a key of the type the line names; a private key is refused (400) and never ' +
      'stored. `title` (at most 64 characters) defaults to the key comment. At most 10 keys a member, each ' +
      'once (409). Session only: an access token cannot add a key (403).',
    tag: 'Settings',
    auth: 'member',
    token: false,
    body: addSshKeySchema,
    responses: [json(201, 'The key', sshKeySchema)],
    errors: [400, 409],
  },
  {
    operationId: 'deleteSshKey',
    method: 'delete',
    path: API.userKey(ID),
    summary: "Deletes one of the member's SSH keys: pastes signed with it then show a warning",
    tag: 'Settings',
    auth: 'member',
    token: false,
    responses: [{ status: 204, description: 'Deleted' }],
    errors: [404],
  },
  {
    operationId: 'getUserPublicKeys',
    method: 'get',
    path: API.userPublicKeys(ID),
    summary: "A member's SSH public keys as `authorized_keys` lines, like GitHub's `.keys`",
    description:
      'One `type base64` line per key, oldest first (empty when none). Turn it into an `allowed_signers` ' +
      "file (`sed 's/^/alice /'`) to check a paste with `ssh-keygen -Y verify`.",
    tag: 'Members',
    auth: 'none',
    token: 'read',
    responses: [{ status: 200, description: 'The keys', schema: z.string(), contentType: 'text/plain' }],
    errors: [404],
  },
  {
    operationId: 'getThreadRawSignature',
    method: 'get',
    path: API.threadRawSignature(ID),
    summary: "A signed paste's SSH signature (armoured), beside its raw text",
    description:
      'To whoever may read the raw text (else 404); 404 when the paste is unsigned. ' +
      '`ssh-keygen -Y verify -f allowed_signers -I alice -n termpaste -s paste.sig < paste.txt` checks it.',
    tag: 'Forum',
    auth: 'none',
    responses: [{ status: 200, description: 'The signature', schema: z.string(), contentType: 'text/plain' }],
    errors: [404],
  },
];
