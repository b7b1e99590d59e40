import {
  flagCreateSchema,
  myFlagSchema,
  myFlagsSchema,
  reviewDecisionSchema,
  reviewItemSchema,
  reviewPageSchema,
  reviewQuerySchema,
  spamMarksPageSchema,
} from '../moderation.js';
import { cursorQuerySchema } from '../queries.js';
import { z } from 'zod';
import { API } from '../routes.js';
import { type ApiOperation, ID, json } from './operation.js';

/** The open review items: a bare number. */
const reviewCountSchema = z.number().int().nonnegative();

/** Members' flags and the review queue's routes of API_OPERATIONS. */
export const FLAGS_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'createFlag',
    method: 'post',
    path: API.flags,
    summary: 'Flags a paste, a reply, a chat message, a private message received, or a member',
    description:
      'A verified member, not banned nor silenced, within RATE_LIMIT_FLAGS_PER_HOUR (429). The paste is ' +
      'named by its number; 404 for what the member cannot see (a private message only its recipient ' +
      'flags), 400 for their own post or themselves, 409 for a second flag of the same item. Each flag ' +
      "counts by its flagger's record; when an item's score reaches MODERATION_FLAG_HIDE_THRESHOLD, a " +
      'paste, a reply or a chat message is hidden pending review at once.',
    tag: 'Moderation',
    auth: 'member',
    token: false,
    body: flagCreateSchema,
    responses: [json(201, 'The flag', myFlagSchema)],
    errors: [400, 404, 409, 429],
  },
  {
    operationId: 'listMyFlags',
    method: 'get',
    path: API.flagsMine,
    summary: "The member's flags, newest first (the last 500), with what staff decided",
    tag: 'Moderation',
    auth: 'member',
    responses: [json(200, 'The flags', myFlagsSchema)],
  },
  {
    operationId: 'listReviewItems',
    method: 'get',
    path: API.adminReview,
    summary: 'The review queue: open items, newest first by their last flag or signal (keyset-paged)',
    description:
      'Each item with its target as members see it (or `gone`), its author and their history, and its ' +
      'flags; filtered by kind, target type and reason.',
    tag: 'Moderation',
    auth: 'admin',
    query: reviewQuerySchema,
    responses: [json(200, 'A page of open items', reviewPageSchema)],
    errors: [400],
  },
  {
    operationId: 'countReviewItems',
    method: 'get',
    path: API.adminReviewCount,
    summary: 'How many review items are open (a bare number)',
    tag: 'Moderation',
    auth: 'admin',
    responses: [json(200, 'The open count', reviewCountSchema)],
  },
  {
    operationId: 'decideReviewItem',
    method: 'post',
    path: API.adminReviewItem(ID),
    summary: 'Decides a review item',
    description:
      'Flagged items take `agree` (keep hidden, or `deletePost`; optionally `suspendDays` or ' +
      '`silenceDays` with a `reason` for the author), `disagree` (clear the flags, show it again) or ' +
      '`ignore` (clear the flags; it stays, shown); held posts take `approve` or `reject`. Audit-logged; ' +
      'each flagger is told. 409 when it was decided already.',
    tag: 'Moderation',
    auth: 'admin',
    body: reviewDecisionSchema,
    responses: [json(200, 'The item as decided', reviewItemSchema)],
    errors: [400, 404, 409],
  },
  {
    operationId: 'listSpamMarks',
    method: 'get',
    path: API.adminSpamMarks,
    summary: 'What deleted spammers left in the spam signals: address hashes and domains, newest first',
    description:
      'Each mark with its kind (`address`: only a short prefix of its SHA-256 is shown; `domain`), when it ' +
      'was made and the username of the deleted spammer it came from, when known. Keyset-paged.',
    tag: 'Moderation',
    auth: 'admin',
    query: cursorQuerySchema,
    responses: [json(200, 'A page of spam marks', spamMarksPageSchema)],
    errors: [400],
  },
  {
    operationId: 'forgetSpamMark',
    method: 'delete',
    path: API.adminSpamMark(ID),
    summary: 'Forgets a spam mark: posts matching it are no longer held for it',
    description: 'Recorded in the audit log (`spam_mark.forget`). 404 for a mark that does not exist.',
    tag: 'Moderation',
    auth: 'admin',
    responses: [{ status: 204, description: 'Forgotten' }],
    errors: [404],
  },
];
