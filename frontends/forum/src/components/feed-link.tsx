import { EMBED_TEXTS, FEED_TYPE } from '@termpaste/contracts';

/**
 * `<link rel="alternate" type="application/atom+xml">` for a page's Atom feed (FEEDS), so feed readers
 * and browsers find it. Rendered anywhere in the page: React 19 hoists a `<link>` into the document's
 * head, and takes it out when the page goes.
 */
export function FeedLink({ href, title }: { href: string; title: string }) {
  return <link rel="alternate" type={FEED_TYPE} href={href} title={EMBED_TEXTS.feed(title)} />;
}
