import { z } from 'zod';
import {
  createdSchema,
  createReplySchema,
  createPasteSchema,
  forkBodySchema,
  forksPageSchema,
  recentPastesPageSchema,
  searchResultsSchema,
  pasteCardSchema,
  pasteDetailSchema,
  voteResultSchema,
  voteSchema,
  heldPostSchema,
} from '../paste-views.js';
import { createPasteQuerySchema } from '../pastes.js';
import { cursorQuerySchema, searchQuerySchema, pasteQuerySchema } from '../queries.js';
import { API } from '../routes.js';
import { type ApiOperation, ID, json } from './operation.js';

/**
 * 202 of a post held for review: a new member's first posts (MODERATION_HOLD_FIRST_POSTS) and posts a
 * spam signal matched are not published but queued for the staff, who approve or reject them.
 */
const held = json(
  202,
  "Held for review by the staff (a spam signal, or a new member's first posts): not published yet",
  heldPostSchema,
);

/** Links a new member may post, and held posts, as the posting routes describe them. */
const SCREENED =
  ' A member with fewer than MODERATION_NEW_MEMBER_POSTS accepted posts may post at most ' +
  'MODERATION_NEW_MEMBER_MAX_LINKS links (400) and RATE_LIMIT_NEW_MEMBER_POSTS_PER_HOUR posts (429). A ' +
  'post a spam signal matches is held for review: 202 `{held, message, itemId}`.';

/** `GET /api/threads/featured`. */
export const pasteCardListSchema = z.array(pasteCardSchema);

/** The Forum routes of API_OPERATIONS. */
export const PASTES_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'getRecentThreads',
    method: 'get',
    path: API.threadsRecent,
    summary: 'Pinned pastes, then the others newest first',
    tag: 'Forum',
    auth: 'none',
    query: cursorQuerySchema,
    responses: [json(200, 'A page of pastes', recentPastesPageSchema)],
    errors: [400],
  },
  {
    operationId: 'getFeaturedThreads',
    method: 'get',
    path: API.threadsFeatured,
    summary: 'Featured pastes',
    tag: 'Forum',
    auth: 'none',
    responses: [json(200, 'Featured pastes', pasteCardListSchema)],
  },
  {
    operationId: 'createThread',
    method: 'post',
    path: API.threads,
    summary: 'Posts a paste',
    description:
      'The content is at most PASTE_MAX_BYTES of UTF-8 (1 MiB by default; larger: 413). `language`: a ' +
      'highlight.js language name or alias, stored by its canonical name (unknown: 400); absent, null or ' +
      "`markdown`: Markdown. `signature`: an SSH signature of the content's exact UTF-8 bytes " +
      "(`ssh-keygen -Y sign -n termpaste`, armoured) by one of the author's SSH keys; 400 when it cannot " +
      'be read, 422 when it is by none of their keys, in another namespace, or does not match the content.' +
      SCREENED,
    tag: 'Forum',
    auth: 'member',
    token: 'pastes:write',
    body: createPasteSchema,
    responses: [json(201, 'Posted', createdSchema), held],
    errors: [400, 413, 422, 429],
  },
  {
    operationId: 'createPaste',
    method: 'post',
    path: API.pastes,
    summary: 'Posts a paste from the terminal: the body is the paste',
    description:
      'The body is the paste, byte for byte, whatever its Content-Type (`curl --data-binary @file`, which ' +
      'sends application/x-www-form-urlencoded), but for two: `multipart/form-data` takes the paste from ' +
      'its `file` part (`curl -F file=@path`: the file name is the title when none is given, and its ' +
      'extension the language; `title` and `lang` fields may come too), and `application/json` is ' +
      "`{title?, content, language?, signature?}`. A form's `signature` field, or JSON's, is an SSH " +
      "signature of the content (`ssh-keygen -Y sign -n termpaste`, armoured) by one of the author's SSH " +
      'keys: 400 when it cannot be read, 422 when it is not by one of their keys or does not match. The title is 1–200 characters after trimming; without one, the ' +
      'first non-blank line of the content, cut to 200. The content must not be blank (400), is at most ' +
      'PASTE_MAX_BYTES (1 MiB by default: 413, answered before the rest of a larger body is read) and must ' +
      'be UTF-8 text without NUL bytes (415). The answer is the URL and a newline as text/plain, or ' +
      '`{id, url, rawUrl}` when Accept prefers JSON. Held for review (see createThread): 202 with the ' +
      'message and a newline, or `{held, message, itemId}` when Accept prefers JSON.' +
      SCREENED,
    tag: 'Forum',
    auth: 'member',
    token: 'pastes:write',
    query: createPasteQuerySchema,
    rawBody: { contentType: 'text/plain', description: 'The paste (or a form with `file`, or JSON)' },
    responses: [
      {
        status: 201,
        description: "The paste's URL and a newline",
        schema: z.string(),
        contentType: 'text/plain',
        headers: { Location: "The paste's URL" },
      },
      {
        status: 202,
        description: 'Held for review by the staff: the message and a newline',
        schema: z.string(),
        contentType: 'text/plain',
      },
    ],
    errors: [400, 413, 415, 422, 429],
  },
  {
    operationId: 'getThread',
    method: 'get',
    path: API.thread(ID),
    summary: 'A paste with its replies',
    description:
      'Open to visitors; a signed-in member also gets their own votes (`myVote`). Counts a view, unless `refresh=true`.',
    tag: 'Forum',
    auth: 'none',
    query: pasteQuerySchema,
    responses: [json(200, 'The paste', pasteDetailSchema)],
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
    operationId: 'readThreadOnce',
    method: 'post',
    path: API.threadReadOnce(ID),
    summary: 'Reads a paste that burns after reading, and deletes it',
    description:
      'Open to visitors. Answers the paste with its `content` and deletes it for good in the same ' +
      'transaction: of readers racing, one gets it, the others 404, as does any later call. Its author ' +
      'reads it without deleting it. A paste that does not burn after reading: 404.',
    tag: 'Forum',
    auth: 'none',
    token: 'read',
    responses: [json(200, 'The paste, with its content', pasteDetailSchema)],
    errors: [404],
  },
  {
    operationId: 'forkThread',
    method: 'post',
    path: API.threadFork(ID),
    summary: 'Posts a new paste from this one (a fork)',
    description:
      "Every field is optional: the original's title, content and language unless given; public, never " +
      'expiring and not burning unless given. The fork carries `forkedFrom`. A paste the caller may not ' +
      'read, and one that burns after reading (but to its author), is a 404. The same limits as a new paste.' +
      SCREENED,
    tag: 'Forum',
    auth: 'member',
    token: 'pastes:write',
    body: forkBodySchema,
    bodyOptional: true,
    responses: [json(201, 'Forked', createdSchema), held],
    errors: [400, 404, 413, 429],
  },
  {
    operationId: 'getThreadForks',
    method: 'get',
    path: API.threadForks(ID),
    summary: "A paste's public forks, newest first",
    tag: 'Forum',
    auth: 'none',
    query: cursorQuerySchema,
    responses: [json(200, 'A page of forks', forksPageSchema)],
    errors: [400, 404],
  },
  {
    operationId: 'createReply',
    method: 'post',
    path: API.threadReplies(ID),
    summary: 'Replies to a paste (or to a reply: `parentId`)',
    description:
      'A locked paste takes replies from admins only (403); a paste that burns after reading takes none (403). ' +
      "A line comment names its lines in `anchor` (`fromLine`..`toLine` of the paste's `version`, at most " +
      '200 lines, within that version: 400) and may carry a `suggestion` replacing them (at most 20,000 ' +
      'characters; one that changes nothing is a 400); only a top-level reply takes an anchor (400 with ' +
      '`parentId`).' +
      SCREENED,
    tag: 'Forum',
    auth: 'member',
    body: createReplySchema,
    responses: [json(201, 'Posted', createdSchema), held],
    errors: [400, 404, 429],
  },
  {
    operationId: 'deleteOwnThread',
    method: 'delete',
    path: API.thread(ID),
    summary: 'Deletes your own paste',
    description:
      'Its author only (403 for another member; 404 for a paste you may not read). It leaves every list, ' +
      'search and profile at once, its replies, votes and versions with it; the reputation it earned is ' +
      'given back. Staff can restore it for 30 days, then it is removed for good.',
    tag: 'Forum',
    auth: 'member',
    token: 'pastes:write',
    responses: [{ status: 204, description: 'Deleted' }],
    errors: [404],
  },
  {
    operationId: 'deleteOwnReply',
    method: 'delete',
    path: API.reply(ID),
    summary: 'Deletes your own reply',
    description:
      'Its author only (403 for another member). Replies under it stay, under `[deleted by its author]`; ' +
      'the reputation it earned is given back. Staff can restore it for 30 days.',
    tag: 'Forum',
    auth: 'member',
    responses: [{ status: 204, description: 'Deleted' }],
    errors: [404],
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
    query: searchQuerySchema,
    responses: [json(200, 'A page of results', searchResultsSchema)],
    errors: [400, 429],
  },
];
