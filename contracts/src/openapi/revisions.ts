import {
  editedReplySchema,
  editedPasteSchema,
  editReplySchema,
  editPasteSchema,
  revisionListSchema,
  revisionSchema,
} from '../revisions.js';
import { API } from '../routes.js';
import { type ApiOperation, ID, json } from './operation.js';

/** The `{n}` of a version's path. */
const N = '{n}';

const EDIT_RULES =
  'The author or an admin (403 for another member); a locked paste, and the replies under it, by an admin ' +
  'only (403). Every edit keeps the version before it (`…/revisions`); an edit that changes nothing ' +
  'answers the post as it is and keeps no version. An admin editing another member’s post is recorded ' +
  'in the audit log. New text holding a possible secret is a 422 with its findings (as a new post), unless ' +
  '`?allowSecrets=true` or `allowSecrets: true` in the body; `secretVersions` names the older versions ' +
  'that still hold a possible secret the edit removed. The original and the newest 50 versions are kept ' +
  '(older ones are pruned). RATE_LIMIT_EDITS_PER_HOUR a member and RATE_LIMIT_EDITS_PER_ADDRESS_PER_HOUR ' +
  'an address (429).';

const PURGE_RULES =
  'Its author or an admin (403 for another member), signed in on the site (no access token). The version ' +
  'reads 404 for everyone afterwards; the list still shows it, as removed. The newest version is the post ' +
  'itself: 409, edit it instead. An admin removing a version of another member’s post is recorded in the ' +
  'audit log.';

/** Edits with history: the PATCH routes and the versions they keep. */
export const REVISIONS_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'editThread',
    method: 'patch',
    path: API.thread(ID),
    summary: "Edits a paste's title, content or language",
    description: `Any of the fields, with the rules of a new paste (the content at most PASTE_MAX_BYTES: 413; an unknown language: 400; \`language: null\`: Markdown); an absent field stays. A new content drops the paste's SSH signature unless \`signature\` signs it anew (its author only: 403; checked as a new paste's: 400, 422); a \`signature\` alone signs the content as it is. ${EDIT_RULES}`,
    tag: 'Forum',
    auth: 'member',
    token: 'pastes:write',
    body: editPasteSchema,
    responses: [json(200, 'The paste as it is now', editedPasteSchema)],
    errors: [400, 404, 413, 422, 429],
  },
  {
    operationId: 'editReply',
    method: 'patch',
    path: API.reply(ID),
    summary: "Edits a reply's content",
    description: `The rules of a new reply. ${EDIT_RULES}`,
    tag: 'Forum',
    auth: 'member',
    body: editReplySchema,
    responses: [json(200, 'The reply as it is now', editedReplySchema)],
    errors: [400, 404, 429],
  },
  {
    operationId: 'getThreadRevisions',
    method: 'get',
    path: API.threadRevisions(ID),
    summary: "A paste's versions, newest first",
    description: 'Open to whoever may read the paste. n = 1 is the original.',
    tag: 'Forum',
    auth: 'none',
    responses: [json(200, 'The versions', revisionListSchema)],
    errors: [404],
  },
  {
    operationId: 'getThreadRevision',
    method: 'get',
    path: API.threadRevision(ID, N),
    summary: 'One version of a paste, with its full text',
    tag: 'Forum',
    auth: 'none',
    responses: [json(200, 'The version', revisionSchema)],
    errors: [404],
  },
  {
    operationId: 'deleteThreadRevision',
    method: 'delete',
    path: API.threadRevision(ID, N),
    summary: 'Removes one version of a paste (a secret edited out, say)',
    description: PURGE_RULES,
    tag: 'Forum',
    auth: 'member',
    token: false,
    responses: [{ status: 204, description: 'Removed' }],
    errors: [404, 409],
  },
  {
    operationId: 'applySuggestion',
    method: 'post',
    path: API.threadSuggestionApply(ID, '{replyId}'),
    summary: "Applies a line comment's suggested change to the paste",
    description:
      "The paste's author only (403 for anyone else, admins too; 404 for a paste you may not read, and for " +
      'a reply that is not a live comment of this paste). The anchored lines are replaced by the suggestion ' +
      'through the edit path: a new version whose history credits the suggester (`suggestedBy`), counted ' +
      'as an edit (429). 409 when it was applied before or a later version changed its lines; 422 for a ' +
      'comment without a suggestion, or one that would leave the paste empty; 413 past PASTE_MAX_BYTES.',
    tag: 'Forum',
    auth: 'member',
    token: 'pastes:write',
    responses: [json(200, 'The paste as it is now', editedPasteSchema)],
    errors: [404, 409, 413, 422, 429],
  },
  {
    operationId: 'getReplyRevisions',
    method: 'get',
    path: API.replyRevisions(ID),
    summary: "A reply's versions, newest first",
    tag: 'Forum',
    auth: 'none',
    responses: [json(200, 'The versions', revisionListSchema)],
    errors: [404],
  },
  {
    operationId: 'getReplyRevision',
    method: 'get',
    path: API.replyRevision(ID, N),
    summary: 'One version of a reply, with its full text',
    tag: 'Forum',
    auth: 'none',
    responses: [json(200, 'The version', revisionSchema)],
    errors: [404],
  },
  {
    operationId: 'deleteReplyRevision',
    method: 'delete',
    path: API.replyRevision(ID, N),
    summary: 'Removes one version of a reply',
    description: PURGE_RULES,
    tag: 'Forum',
    auth: 'member',
    token: false,
    responses: [{ status: 204, description: 'Removed' }],
    errors: [404, 409],
  },
];
