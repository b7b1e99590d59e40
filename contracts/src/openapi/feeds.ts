import { z } from 'zod';
import { FEED_ENTRIES_MAX, FEED_MESSAGES, oembedQuerySchema, oembedSchema } from '../feeds.js';
import { searchQuerySchema } from '../queries.js';
import { API } from '../routes.js';
import { type ApiOperation, ID, json } from './operation.js';

const ATOM = {
  status: 200,
  description: `An Atom feed (RFC 4287) of at most ${FEED_ENTRIES_MAX} listed pastes, newest first`,
  schema: z.string(),
  contentType: 'application/atom+xml',
} as const;

const FEED_NOTE =
  'Public (listed) pastes only. A feed reader may keep it a minute (`max-age=60`), a shared cache a few seconds (`s-maxage`); with an ETag.';

/**
 * The Atom feeds (served beside the app, not under /api) and oEmbed. The embed pages (`/embed/{id}`)
 * are HTML for iframes, not API: the README describes them.
 */
export const FEEDS_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'recentFeed',
    method: 'get',
    path: API.feedRecent,
    summary: 'Atom feed of the newest pastes',
    description: FEED_NOTE,
    tag: 'Forum',
    auth: 'none',
    responses: [ATOM],
  },
  {
    operationId: 'tagFeed',
    method: 'get',
    path: API.feedTag('{name}'),
    summary: "Atom feed of a tag's newest pastes",
    description: `${FEED_NOTE} An unknown tag: 404.`,
    tag: 'Forum',
    auth: 'none',
    responses: [ATOM],
    errors: [404],
  },
  {
    operationId: 'userFeed',
    method: 'get',
    path: API.feedUser(ID),
    summary: "Atom feed of a member's newest pastes",
    description: `${FEED_NOTE} An unknown member: 404.`,
    tag: 'Forum',
    auth: 'none',
    responses: [ATOM],
    errors: [404],
  },
  {
    operationId: 'searchFeed',
    method: 'get',
    path: API.feedSearch,
    summary: "Atom feed of a search's first page of results, newest first",
    description: `${FEED_NOTE} \`q\` as /api/search takes it (\`page\` is ignored); the same rate limit.`,
    tag: 'Forum',
    auth: 'none',
    query: searchQuerySchema,
    responses: [ATOM],
    errors: [400, 429],
  },
  {
    operationId: 'oembed',
    method: 'get',
    path: API.oembed,
    summary: 'oEmbed: the HTML that embeds a paste of this site',
    description:
      'oEmbed 1.0, the `rich` type: an `<iframe>` of `/embed/{id}`. `url` is the address of a public ' +
      'paste (`/thread/{number}`) or an unlisted one (`/thread/{key}`) of this site, or its embed. ' +
      `Without \`url\`: 400 (${FEED_MESSAGES.oembedUrlRequired}). \`format=xml\`: 501. An address of ` +
      'another site, of no paste, or of a private, burning, hidden, deleted or expired paste: 404.',
    tag: 'Forum',
    auth: 'none',
    query: oembedQuerySchema,
    responses: [json(200, 'The embed', oembedSchema)],
    errors: [400, 404, 501],
  },
];
