import { FEED_SUMMARY_MAX, PAGES } from '@termpaste/contracts';

/** One paste of a feed, as the feed's query reads it (JSON-safe: the page cache keeps it). */
export interface FeedEntry {
  id: number;
  title: string;
  /** ISO times. */
  createdAt: string;
  editedAt: string | null;
  expiresAt: string | null;
  /** The content's first characters. */
  excerpt: string;
  tags: string[];
  /** `username` with `id`: the page cache drops a feed that shows a member whose profile changed. */
  author: { id: number; username: string } | null;
}

/** What a feed is about: its own address, the page it mirrors, its title. */
export interface FeedInfo {
  /** Absolute: the feed's `self` link and its id. */
  selfUrl: string;
  /** Absolute: the page of the site the feed mirrors. */
  pageUrl: string;
  title: string;
}

/** Where the site is and what it is called, for absolute links and the feed's author. */
export interface FeedSite {
  publicUrl: string;
  productName: string;
}

// eslint-disable-next-line no-control-regex -- terminal escapes are what it removes
const ANSI_ESCAPE = /\x1b\[[0-9;?]*[A-Za-z]/g;
/**
 * Characters XML 1.0 forbids (C0 controls but tab, line feed and return; lone surrogates; U+FFFE/F),
 * and C1 controls, which it allows but no reader shows: a title or paste may hold any of them.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- control characters are what it removes
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text fit for XML character data and attribute values: forbidden characters dropped, markup escaped. */
export function xmlEscape(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A paste's text without its terminal escapes, cut to `max` characters (an ellipsis says so). */
export function excerptOf(content: string, max = FEED_SUMMARY_MAX): string {
  const text = content.replace(ANSI_ESCAPE, '').replace(NOT_XML, '').trim();
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

/** A feed with no entry is still `updated`: at the epoch, so its ETag stays put. */
const NEVER = new Date(0).toISOString();

const updatedOf = (entry: FeedEntry) =>
  entry.editedAt && entry.editedAt > entry.createdAt ? entry.editedAt : entry.createdAt;

/**
 * An Atom feed (RFC 4287) of `entries`, newest first: each entry's id is its paste's address (stable:
 * only listed pastes appear, by number), its author the member (or, for a deleted account, the feed's
 * author: the site), its summary the first lines as text.
 */
export function atomFeed(site: FeedSite, feed: FeedInfo, entries: readonly FeedEntry[]): string {
  const base = site.publicUrl;
  const updated = entries.map(updatedOf).reduce((a, b) => (b > a ? b : a), NEVER);
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${xmlEscape(feed.selfUrl)}</id>`,
    `<title type="text">${xmlEscape(feed.title)}</title>`,
    `<updated>${updated}</updated>`,
    `<link rel="self" type="application/atom+xml" href="${xmlEscape(feed.selfUrl)}"/>`,
    `<link rel="alternate" type="text/html" href="${xmlEscape(feed.pageUrl)}"/>`,
    `<author><name>${xmlEscape(site.productName)}</name><uri>${xmlEscape(`${base}/`)}</uri></author>`,
    `<generator uri="${xmlEscape(`${base}/`)}">${xmlEscape(site.productName)}</generator>`,
  ];
  for (const entry of entries) {
    const url = xmlEscape(`${base}${PAGES.thread(entry.id)}`);
    lines.push(
      '<entry>',
      `<id>${url}</id>`,
      `<title type="text">${xmlEscape(entry.title)}</title>`,
      `<updated>${updatedOf(entry)}</updated>`,
      `<published>${entry.createdAt}</published>`,
      `<link rel="alternate" type="text/html" href="${url}"/>`,
    );
    if (entry.author) {
      const profile = xmlEscape(`${base}${PAGES.profile(entry.author.id)}`);
      lines.push(`<author><name>${xmlEscape(entry.author.username)}</name><uri>${profile}</uri></author>`);
    }
    for (const tag of entry.tags) lines.push(`<category term="${xmlEscape(tag)}"/>`);
    lines.push(`<summary type="text">${xmlEscape(entry.excerpt)}</summary>`, '</entry>');
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}
