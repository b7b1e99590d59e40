import { PARSE_BUDGET_MS } from './markdown-text.js';
import { mentionedUsernames, mentionsAnyone } from './mentions.js';

describe('mentionedUsernames', () => {
  it.each([
    ['hi @alice and @Bob_1', ['alice', 'bob_1']],
    ['@alice at the start, (@bob) in brackets, @carol.', ['alice', 'bob', 'carol']],
    ['twice: @Alice @alice @ALICE', ['alice']],
    ['e-mail bob@example.com and x.@dave and x-@erin and @@frank', []],
    ['too short @ab, too long @' + 'a'.repeat(33), []],
    ['exactly 32 @' + 'a'.repeat(32), ['a'.repeat(32)]],
    ['@alice@example.com is an address-like thing', []],
    ['inline `@alice` code and ``@bob ` still code`` but @carol', ['carol']],
    ['an unclosed ` backtick then @alice', ['alice']],
    ['```\n@alice\n```\n@bob', ['bob']],
    ['~~~ts\n@alice\n~~~~\n@bob', ['bob']],
    ['````\n@alice\n```\nstill code @bob\n````\n@carol', ['carol']],
    ['```\nunclosed fence @alice', []],
    ['   ```\n@alice\n   ```\n@bob\r\n@carol', ['bob', 'carol']],
    ['```not a fence` @alice', ['alice']],
  ])('%j', async (text, expected) => {
    expect(await mentionedUsernames(text)).toEqual(expected);
  });

  // Read as the page reads it (remark with GitHub-flavoured Markdown): code of any kind never mentions.
  it.each([
    ['indented code', 'text\n\n    @alice in indented code\n\n@bob', ['bob']],
    ['indented code under a list item', '- item @bob\n\n          @alice code in the item', ['bob']],
    ['tab-indented code', '\t@alice\n\nthen @bob', ['bob']],
    ['indented lines inside a paragraph are text', 'a paragraph\n    @alice continues it', ['alice']],
    ['fenced code in a block quote', '> ```\n> @alice\n> ```\n> @bob', ['bob']],
    ['inline code', 'run `@alice` then ask @bob', ['bob']],
    ['link text, not its address', '[ask @alice](https://example.com/@bob "@carol")', ['alice']],
    ['reference link text, not its definition', '[@alice][r]\n\n[r]: https://example.com/@bob', ['alice']],
    [
      'autolinks are addresses',
      '<https://example.com/@alice> https://example.com/@bob www.example.com/@carol',
      [],
    ],
    ['image descriptions are no text', '![@alice](https://example.com/a.png) and @bob', ['bob']],
    ['emphasis, strong and strikethrough', '_@alice_ **@bob** ~~@carol~~', ['alice', 'bob', 'carol']],
    ['headings and lists', '# Hi @alice\n\n1. @bob\n   - @carol', ['alice', 'bob', 'carol']],
    ['block quotes', '> @alice\n>\n> > @bob', ['alice', 'bob']],
    ['tables', '| who | @alice |\n| --- | --- |\n| `@bob` | @carol |', ['alice', 'carol']],
    ['an escaped @ glued to a word is no mention', 'x\\@alice and \\@bob', ['bob']],
    ['a character reference is the @ it shows', '&#64;alice &commat;bob', ['alice', 'bob']],
    // The page shows raw HTML as text (no rehype-raw): a mention in it is seen, so it counts.
    ['an HTML block, shown as text', '<div>\n@alice\n</div>\n\n@bob', ['alice', 'bob']],
    ['inline HTML, shown as text', 'see <b>@alice</b>', ['alice']],
  ])('%s', async (_name, text, expected) => {
    expect(await mentionedUsernames(text)).toEqual(expected);
  });

  it('reads a post without any @ without parsing it, and each post once for its several readers', async () => {
    const plain = `${'*a'.repeat(50_000)} mail me at x@y`;
    // Parsed, it would take minutes and give up at the budget: far sooner means it was never parsed.
    const started = performance.now();
    expect(await mentionsAnyone(plain)).toBe(false);
    expect(performance.now() - started).toBeLessThan(PARSE_BUDGET_MS);
    const post = `${'Some **text** and [a link](https://example.com).\n\n'.repeat(100)}hi @alice`;
    expect(await mentionedUsernames(post, 20)).toEqual(['alice']);
    expect(await mentionsAnyone(post)).toBe(true);
    expect(await mentionedUsernames(post, 500)).toEqual(['alice']);
  });

  it('gives up on a text the parser cannot read in time or at all: it mentions nobody', async () => {
    // micromark takes minutes over 100 KB of `*a` and overflows its stack on 10,000 nested quotes.
    for (const text of [`${'*a'.repeat(45_000)} @alice`, `${'>'.repeat(20_000)} @alice`]) {
      const started = performance.now();
      expect(await mentionedUsernames(text)).toEqual([]);
      // Minutes if nothing gave up; the budget, plus room for a loaded machine's event loop.
      expect(performance.now() - started).toBeLessThan(PARSE_BUDGET_MS * 6);
    }
    // And the next text is read as usual (a new reader thread).
    expect(await mentionedUsernames('    @alice\n\n@bob')).toEqual(['bob']);
  });

  it('keeps the first `limit` names in order of first mention', async () => {
    expect(await mentionedUsernames('@ccc @aaa @ccc @bbb @ddd', 2)).toEqual(['ccc', 'aaa']);
  });

  it('reads a large post of backticks without hanging', async () => {
    const text = `${'`a'.repeat(40_000)} ${'``b'.repeat(10_000)} @alice`;
    const started = performance.now();
    await mentionedUsernames(text);
    // Within the budget, plus room for a loaded machine's event loop.
    expect(performance.now() - started).toBeLessThan(PARSE_BUDGET_MS * 6);
  });
});

describe('mentionsAnyone', () => {
  it.each([
    ['hi @alice', true],
    ['no at sign', false],
    ['mail bob@example.com, code `@alice`, short @ab', false],
    ['```\n@alice\n```\nthen @bob', true],
  ])('%j: %s', async (text, expected) => {
    expect(await mentionsAnyone(text)).toBe(expected);
  });
});
