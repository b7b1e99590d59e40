import { TAG_NAME_PATTERN, TAGS_PER_PASTE_MAX } from './tags.js';

/*
 * The search box's language: words, "exact phrases", -excluded words and operators (`tag:rust`,
 * `sort:new`, …). One parser for the backend (which builds its SQL from the result) and the /search
 * controls (which edit the query text through printSearchQuery).
 */

/** How a search's results are ordered. */
export const SEARCH_SORTS = ['relevance', 'new', 'top'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** A word or "phrase" of the query; `negated`: written with a leading `-`, pastes holding it are left out. */
export interface SearchTerm {
  text: string;
  phrase: boolean;
  negated: boolean;
}

/** A parsed search: its terms in the order written, and its filters. */
export interface ParsedSearch {
  terms: SearchTerm[];
  /** A member's username (`user:`), as written. */
  user?: string;
  /** Tag names (`tag:`, repeatable): a paste must carry every one. */
  tags: string[];
  /** A language name or alias (`lang:`), lower-cased; the backend maps it to the canonical name. */
  lang?: string;
  /** `in:title`: the words and phrases are looked for in titles only. */
  inTitle: boolean;
  /** `after:YYYY-MM-DD`: created on that day (UTC) or later. */
  after?: string;
  /** `before:YYYY-MM-DD`: created before that day (UTC). */
  before?: string;
  /** `is:featured`: featured pastes only. */
  featured: boolean;
  /** `sort:`; absent: relevance when there are words, else newest first. */
  sort?: SearchSort;
}

/** An empty query: no terms, no filters. */
export const emptySearch = (): ParsedSearch => ({ terms: [], tags: [], inTitle: false, featured: false });

/** Every operator, with an example, for the help popover and the docs. */
export const SEARCH_OPERATORS = [
  { syntax: 'word', example: 'docker', meaning: 'pastes holding every word' },
  { syntax: '"exact phrase"', example: '"kernel panic"', meaning: 'the words together, in this order' },
  { syntax: '-word', example: '-windows', meaning: 'leaves out pastes holding the word' },
  { syntax: '-"phrase"', example: '-"not syncing"', meaning: 'leaves out pastes holding the phrase' },
  { syntax: 'user:name', example: 'user:neo', meaning: "a member's pastes" },
  { syntax: 'tag:name', example: 'tag:rust', meaning: 'pastes with the tag (repeat for several)' },
  { syntax: 'lang:name', example: 'lang:python', meaning: 'pastes in the language' },
  { syntax: 'in:title', example: 'in:title nginx', meaning: 'the words in titles only' },
  { syntax: 'after:date', example: 'after:2026-01-01', meaning: 'created on that day or later (UTC)' },
  { syntax: 'before:date', example: 'before:2026-02-01', meaning: 'created before that day (UTC)' },
  { syntax: 'is:featured', example: 'is:featured', meaning: 'featured pastes only' },
  {
    syntax: 'sort:new|top|relevance',
    example: 'sort:top',
    meaning: 'newest first, most votes first, or best match (the default)',
  },
] as const;

const OPERATORS = ['user', 'tag', 'lang', 'in', 'after', 'before', 'is', 'sort'] as const;
type Operator = (typeof OPERATORS)[number];

const EXAMPLES: Record<Operator, string> = {
  user: 'user:neo',
  tag: 'tag:rust',
  lang: 'lang:python',
  in: 'in:title',
  after: 'after:2026-01-01',
  before: 'before:2026-01-01',
  is: 'is:featured',
  sort: 'sort:new',
};

/** A value as a message quotes it: at most 40 characters. */
const quoted = (value: string) => `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;

/** The 400s of a query the parser cannot take. */
export const SEARCH_MESSAGES = {
  emptyValue: (operator: string) =>
    `${operator}: needs a value, as in ${EXAMPLES[operator as Operator] ?? `${operator}:value`}`,
  badDate: (operator: string, value: string) =>
    `${operator}: takes a date as YYYY-MM-DD, not ${quoted(value)}`,
  datesCrossed: 'after: must be an earlier date than before:',
  badSort: (value: string) => `sort: takes new, top or relevance, not ${quoted(value)}`,
  badIs: (value: string) => `is: takes featured, not ${quoted(value)}`,
  badIn: (value: string) => `in: takes title, not ${quoted(value)}`,
  badTag: (value: string) => `tag: takes a tag name (2–30 of a-z, 0-9 and -), not ${quoted(value)}`,
  tooManyTags: `A search takes at most ${TAGS_PER_PASTE_MAX} tag: filters`,
  badUser: (value: string) => `user: takes a username (letters, digits, _ and -), not ${quoted(value)}`,
  badLang: (value: string) => `lang: takes a language name, such as python, not ${quoted(value)}`,
} as const;

/** A username as user: takes it: USERNAME's characters, any length up to 64 (no match is no result). */
const USER_VALUE = /^[A-Za-z0-9_-]{1,64}$/;
/** A language name or alias: highlight.js's are letters, digits and a few signs (c++, c#, x86asm). */
const LANG_VALUE = /^[a-z0-9+#._-]{1,64}$/;
const DATE_VALUE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
function isDate(value: string): boolean {
  const m = DATE_VALUE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1970 && d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day
  );
}

/** A parse: the query, or the text of its first problem (a 400). */
export type SearchParse = { ok: true; query: ParsedSearch } | { ok: false; error: string };

/** Splits the text into words, phrases (quoted; an unclosed quote runs to the end) and their `-` marks. */
function tokens(text: string): Array<{ text: string; phrase: boolean; negated: boolean }> {
  const out: Array<{ text: string; phrase: boolean; negated: boolean }> = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    const negated = text[i] === '-' && text[i + 1] === '"';
    const start = negated ? i + 1 : i;
    if (text[start] === '"') {
      const end = text.indexOf('"', start + 1);
      const inner = text.slice(start + 1, end === -1 ? text.length : end);
      i = end === -1 ? text.length : end + 1;
      const words = inner.trim().split(/\s+/).filter(Boolean).join(' ');
      if (words) out.push({ text: words, phrase: true, negated });
      continue;
    }
    let end = start;
    while (end < text.length && !/\s/.test(text[end]!)) end++;
    const word = text.slice(start, end);
    i = end;
    if (word.length > 1 && word.startsWith('-'))
      out.push({ text: word.slice(1), phrase: false, negated: true });
    else if (word !== '-') out.push({ text: word, phrase: false, negated: false });
  }
  return out;
}

/**
 * Parses the search box's text. Unknown operators (`foo:bar`) are words; a known one with a bad value is
 * an error (SEARCH_MESSAGES). Operators may stand alone: `tag:rust` lists the tag's pastes.
 */
export function parseSearchQuery(text: string): SearchParse {
  const query = emptySearch();
  for (const token of tokens(text)) {
    const m = token.phrase || token.negated ? null : /^([A-Za-z]+):(.*)$/.exec(token.text);
    const operator = m?.[1]!.toLowerCase() as Operator | undefined;
    if (!m || !operator || !(OPERATORS as readonly string[]).includes(operator)) {
      query.terms.push(token);
      continue;
    }
    const value = m[2]!;
    if (value === '') return { ok: false, error: SEARCH_MESSAGES.emptyValue(operator) };
    const lower = value.toLowerCase();
    switch (operator) {
      case 'user':
        if (!USER_VALUE.test(value)) return { ok: false, error: SEARCH_MESSAGES.badUser(value) };
        query.user = value;
        break;
      case 'tag':
        if (!TAG_NAME_PATTERN.test(lower)) return { ok: false, error: SEARCH_MESSAGES.badTag(value) };
        if (!query.tags.includes(lower)) query.tags.push(lower);
        if (query.tags.length > TAGS_PER_PASTE_MAX) return { ok: false, error: SEARCH_MESSAGES.tooManyTags };
        break;
      case 'lang':
        if (!LANG_VALUE.test(lower)) return { ok: false, error: SEARCH_MESSAGES.badLang(value) };
        query.lang = lower;
        break;
      case 'in':
        if (lower !== 'title') return { ok: false, error: SEARCH_MESSAGES.badIn(value) };
        query.inTitle = true;
        break;
      case 'is':
        if (lower !== 'featured') return { ok: false, error: SEARCH_MESSAGES.badIs(value) };
        query.featured = true;
        break;
      case 'sort':
        if (!(SEARCH_SORTS as readonly string[]).includes(lower))
          return { ok: false, error: SEARCH_MESSAGES.badSort(value) };
        query.sort = lower as SearchSort;
        break;
      case 'after':
      case 'before':
        if (!isDate(value)) return { ok: false, error: SEARCH_MESSAGES.badDate(operator, value) };
        query[operator] = value;
        break;
    }
  }
  if (query.after && query.before && query.after >= query.before)
    return { ok: false, error: SEARCH_MESSAGES.datesCrossed };
  return { ok: true, query };
}

/** A term as the search box writes it. */
export function printSearchTerm(term: SearchTerm): string {
  return `${term.negated ? '-' : ''}${term.phrase ? `"${term.text}"` : term.text}`;
}

/**
 * The query as text: its terms in their order, then the filters in a fixed order. Parsing the result gives
 * the same query back, so the /search controls edit the text through it.
 */
export function printSearchQuery(query: ParsedSearch): string {
  const parts = query.terms.map(printSearchTerm);
  if (query.user) parts.push(`user:${query.user}`);
  for (const tag of query.tags) parts.push(`tag:${tag}`);
  if (query.lang) parts.push(`lang:${query.lang}`);
  if (query.inTitle) parts.push('in:title');
  if (query.featured) parts.push('is:featured');
  if (query.after) parts.push(`after:${query.after}`);
  if (query.before) parts.push(`before:${query.before}`);
  if (query.sort) parts.push(`sort:${query.sort}`);
  return parts.join(' ');
}

/** Whether the query has a word or phrase to find (not only filters and left-out words). */
export const hasSearchWords = (query: ParsedSearch): boolean => query.terms.some((term) => !term.negated);
