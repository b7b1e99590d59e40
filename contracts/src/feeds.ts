import { z } from 'zod';
import { API } from './routes.js';

/** A feed lists at most this many pastes, newest first. */
export const FEED_ENTRIES_MAX = 50;
/** An entry's summary: the paste's first characters, at most this many. */
export const FEED_SUMMARY_MAX = 280;
/** An embed shows at most this many lines of its paste (then a link to the rest). */
export const EMBED_LINES_MAX = 500;

/** The Atom feeds' addresses (API's), a search's with its words. */
export const FEEDS = {
  recent: API.feedRecent,
  tag: API.feedTag,
  user: API.feedUser,
  search: (q?: string) => (q === undefined ? API.feedSearch : `${API.feedSearch}?q=${encodeURIComponent(q)}`),
} as const;

/** A paste's embeddable code view: framable by any site. */
export const EMBED_PAGE = (id: string | number) => `/embed/${id}`;

export const FEED_TYPE = 'application/atom+xml';
export const OEMBED_TYPE = 'application/json+oembed';

/** The iframe's size an embed is offered at (the reader's site may resize it). */
export const EMBED_WIDTH = 640;
export const EMBED_HEIGHT_MIN = 120;
export const EMBED_HEIGHT_MAX = 480;

export const FEED_MESSAGES = {
  /** 404 of /feeds/users/{id}.atom for no such member. */
  userNotFound: 'User not found',
  /** 400 of /api/oembed without `url`. */
  oembedUrlRequired: 'url is required: the address of a paste of this site',
  /** 501 of /api/oembed?format=xml (and any other format). */
  oembedFormat: 'Only format=json is supported',
  /** 404 of /api/oembed for an address not of this site, not a paste, or a paste that cannot be embedded. */
  oembedNotFound: 'No paste of this site that can be embedded at that address',
} as const;

export const EMBED_TEXTS = {
  button: 'EMBED',
  buttonTitle: 'Copy the HTML that embeds this paste in another site',
  copied: 'Embed code copied: paste it into your page',
  copyFailed: 'Could not copy: select the code and copy it',
  feed: (what: string) => `Atom feed: ${what}`,
} as const;

/** The iframe's height for a paste of `lines` lines (about 20 px a line, the header and the padding). */
export function embedHeight(lines: number): number {
  return Math.min(EMBED_HEIGHT_MAX, Math.max(EMBED_HEIGHT_MIN, 56 + 20 * lines));
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The HTML that embeds a paste: the oEmbed answer's `html` and what EMBED copies (one rule, both ends).
 * `src` is the absolute /embed address.
 */
export function embedIframe({ src, title, height }: { src: string; title: string; height: number }): string {
  return (
    `<iframe src="${escapeAttribute(src)}" width="${EMBED_WIDTH}" height="${height}" ` +
    `title="${escapeAttribute(title)}" style="max-width:100%;border:0" loading="lazy"></iframe>`
  );
}

/** `GET /api/oembed?url=…&format=json` (oEmbed 1.0). */
export const oembedQuerySchema = z.object({
  url: z
    .string()
    .optional()
    .meta({ description: 'The address of a paste of this site (its page or its embed)' }),
  format: z
    .string()
    .optional()
    .meta({ description: "The answer's format: `json` (the default); `xml` is not supported (501)" }),
  maxwidth: z.string().optional().meta({ description: 'Ignored: the iframe is at most 640 wide' }),
  maxheight: z.string().optional().meta({ description: 'Ignored: the iframe is at most 480 high' }),
});
export type OembedQuery = z.output<typeof oembedQuerySchema>;

/** The oEmbed answer: the `rich` type, an iframe of /embed/{id}. */
export const oembedSchema = z.object({
  version: z.literal('1.0'),
  type: z.literal('rich'),
  html: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  title: z.string(),
  author_name: z.string().optional(),
  author_url: z.string().optional(),
  provider_name: z.string(),
  provider_url: z.string(),
  cache_age: z.number().int(),
});
export type Oembed = z.infer<typeof oembedSchema>;

/** `/api/oembed` answers for this long (s) in caches (an edit or deletion shows in the embed at once). */
export const OEMBED_CACHE_AGE = 3600;
