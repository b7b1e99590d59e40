import { visibleTexts } from './markdown-text.js';

/**
 * `@username` mentions: not after a word character, `.`, `@` or `-` (`bob@example.com` mentions nobody),
 * not followed by a username character or `@`. Only text the page shows as text is read (markdown-text.ts),
 * never code, a link's address or an autolink.
 */
const MENTION = /(?<![\w.@-])@([A-Za-z0-9_-]{3,32})(?![A-Za-z0-9_@-])/g;

/** Whether a text can mention anyone at all: an `@` before three name characters, or `@` as a reference. */
const MAY_MENTION = /@[A-Za-z0-9_-]{3}|&(?:#0*64|#x0*40|commat);/i;

/**
 * The texts of the last few posts read: a paste is read by its write limits and its service within one
 * request, one parse between them.
 */
const recent = new Map<string, Promise<string[]>>();
const RECENT_MAX = 8;

function textsOf(markdown: string): Promise<string[]> {
  const known = recent.get(markdown);
  if (known) return known;
  // A text the parser cannot read in time (markdown-text.ts) mentions nobody.
  const texts = visibleTexts(markdown).then((read) => read ?? []);
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
  recent.set(markdown, texts);
  return texts;
}

/**
 * The distinct usernames mentioned in `markdown`, in order of first mention, lower-cased (usernames are
 * unique without regard to case); at most `limit` of them.
 */
export async function mentionedUsernames(
  markdown: string,
  limit = Number.POSITIVE_INFINITY,
): Promise<string[]> {
  const names = new Set<string>();
  if (limit < 1 || !MAY_MENTION.test(markdown)) return [];
  for (const text of await textsOf(markdown)) {
    for (const match of text.matchAll(MENTION)) {
      if (names.size >= limit) return [...names];
      names.add(match[1]!.toLowerCase());
    }
  }
  return [...names];
}

/** Whether `markdown` @mentions anyone at all (a post that does not has no mention to notify). */
export async function mentionsAnyone(markdown: string): Promise<boolean> {
  return (await mentionedUsernames(markdown, 1)).length > 0;
}
