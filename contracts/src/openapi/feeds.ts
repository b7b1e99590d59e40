import { FEED_MESSAGES, oembedQuerySchema, oembedSchema } from '../feeds.js';
import { API } from '../routes.js';
import { type ApiOperation, json } from './operation.js';

/**
 * oEmbed. The Atom feeds (`/feeds/…`) and the embed pages (`/embed/{id}`) are served beside the app,
 * not under /api: the README lists them.
 */
export const FEEDS_OPERATIONS: readonly ApiOperation[] = [
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
