import {
  emptySearch,
  hasSearchWords,
  parseSearchQuery,
  printSearchQuery,
  SEARCH_MESSAGES,
  SEARCH_OPERATORS,
  searchQuerySchema,
} from './index.js';

const parsed = (text: string) => {
  const result = parseSearchQuery(text);
  if (!result.ok) throw new Error(result.error);
  return result.query;
};
const errorOf = (text: string) => {
  const result = parseSearchQuery(text);
  return result.ok ? undefined : result.error;
};
const word = (text: string, negated = false) => ({ text, phrase: false, negated });
const phrase = (text: string, negated = false) => ({ text, phrase: true, negated });

describe('parseSearchQuery', () => {
  it('words, phrases and left-out words and phrases, in order', () => {
    expect(parsed('docker  "kernel   panic" -windows -"not syncing"').terms).toEqual([
      word('docker'),
      phrase('kernel panic'),
      word('windows', true),
      phrase('not syncing', true),
    ]);
  });

  it('an unclosed quote runs to the end; empty quotes and a lone - are nothing', () => {
    expect(parsed('"kernel panic').terms).toEqual([phrase('kernel panic')]);
    expect(parsed('"" - x').terms).toEqual([word('x')]);
  });

  it('every operator, combinable, in any case', () => {
    expect(
      parsed(
        'USER:Neo tag:Rust tag:cli LANG:Python in:TITLE is:Featured after:2026-01-01 before:2026-02-01 sort:TOP getUserById',
      ),
    ).toEqual({
      terms: [word('getUserById')],
      user: 'Neo',
      tags: ['rust', 'cli'],
      lang: 'python',
      inTitle: true,
      featured: true,
      after: '2026-01-01',
      before: '2026-02-01',
      sort: 'top',
    });
  });

  it.each(['new', 'top', 'relevance'])('sort:%s', (sort) => {
    expect(parsed(`sort:${sort}`).sort).toBe(sort);
  });

  it('operators alone are a query: no words', () => {
    const query = parsed('tag:rust');
    expect(query.terms).toEqual([]);
    expect(hasSearchWords(query)).toBe(false);
    expect(hasSearchWords(parsed('user:neo sort:new -docker'))).toBe(false);
    expect(hasSearchWords(parsed('user:neo docker'))).toBe(true);
  });

  it('unknown operators, a negated operator and a URL are words', () => {
    expect(parsed('foo:bar -tag:rust https://example.com').terms).toEqual([
      word('foo:bar'),
      word('tag:rust', true),
      word('https://example.com'),
    ]);
  });

  it('a repeated tag counts once; the last of another operator stands', () => {
    expect(parsed('tag:rust tag:RUST').tags).toEqual(['rust']);
    expect(parsed('user:a1 user:b2 sort:new sort:top').user).toBe('b2');
    expect(parsed('user:a1 user:b2 sort:new sort:top').sort).toBe('top');
  });

  it.each([
    ['before:2026-13-01', SEARCH_MESSAGES.badDate('before', '2026-13-01')],
    ['after:2026-02-30', SEARCH_MESSAGES.badDate('after', '2026-02-30')],
    ['after:yesterday', SEARCH_MESSAGES.badDate('after', 'yesterday')],
    ['before:1969-12-31', SEARCH_MESSAGES.badDate('before', '1969-12-31')],
    ['after:2026-02-01 before:2026-02-01', SEARCH_MESSAGES.datesCrossed],
    ['sort:xyz', SEARCH_MESSAGES.badSort('xyz')],
    ['is:pinned', SEARCH_MESSAGES.badIs('pinned')],
    ['in:body', SEARCH_MESSAGES.badIn('body')],
    ['tag:c++', SEARCH_MESSAGES.badTag('c++')],
    ['tag:x', SEARCH_MESSAGES.badTag('x')],
    ['tag:aa tag:bb tag:cc tag:dd tag:ee tag:ff', SEARCH_MESSAGES.tooManyTags],
    ['user:neo!', SEARCH_MESSAGES.badUser('neo!')],
    ['lang:py thon', undefined],
    ['lang:py/thon', SEARCH_MESSAGES.badLang('py/thon')],
    ['tag:', SEARCH_MESSAGES.emptyValue('tag')],
    ['user:', SEARCH_MESSAGES.emptyValue('user')],
  ])('%s: %s', (text, error) => {
    expect(errorOf(text)).toBe(error);
  });

  it('says what was wrong in plain words', () => {
    expect(SEARCH_MESSAGES.badSort('xyz')).toBe('sort: takes new, top or relevance, not "xyz"');
    expect(SEARCH_MESSAGES.badDate('before', '2026-1-1')).toBe(
      'before: takes a date as YYYY-MM-DD, not "2026-1-1"',
    );
    expect(SEARCH_MESSAGES.emptyValue('sort')).toBe('sort: needs a value, as in sort:new');
    expect(SEARCH_MESSAGES.badTag('x'.repeat(50))).toBe(
      `tag: takes a tag name (2–30 of a-z, 0-9 and -), not "${'x'.repeat(40)}…"`,
    );
  });
});

describe('printSearchQuery', () => {
  it('prints what parses back to the same query, filters in a fixed order', () => {
    const text = 'sort:new docker -"not syncing" tag:rust user:neo is:featured "a b" lang:python';
    const printed = printSearchQuery(parsed(text));
    expect(printed).toBe('docker -"not syncing" "a b" user:neo tag:rust lang:python is:featured sort:new');
    expect(parsed(printed)).toEqual(parsed(text));
  });

  it('an empty query is empty text; filters alone print alone', () => {
    expect(printSearchQuery(emptySearch())).toBe('');
    expect(
      printSearchQuery({ ...emptySearch(), inTitle: true, after: '2026-01-01', before: '2026-03-01' }),
    ).toBe('in:title after:2026-01-01 before:2026-03-01');
  });
});

describe('searchQuerySchema', () => {
  it('refuses a bad operator value with the parser text', () => {
    const result = searchQuerySchema.safeParse({ q: 'docker sort:xyz' });
    expect(result.error?.issues[0]?.message).toBe(SEARCH_MESSAGES.badSort('xyz'));
    expect(searchQuerySchema.parse({ q: 'tag:rust' }).q).toBe('tag:rust');
  });
});

it('the help lists every operator with an example', () => {
  for (const operator of [
    'user:',
    'tag:',
    'lang:',
    'in:title',
    'after:',
    'before:',
    'is:featured',
    'sort:',
    '-"',
  ]) {
    expect(SEARCH_OPERATORS.some((o) => o.example.includes(operator) || o.syntax.includes(operator))).toBe(
      true,
    );
  }
  for (const o of SEARCH_OPERATORS) expect(parseSearchQuery(o.example).ok).toBe(true);
});
