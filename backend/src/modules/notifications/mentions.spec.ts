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
  ])('%j', (text, expected) => {
    expect(mentionedUsernames(text)).toEqual(expected);
  });

  it('keeps the first `limit` names in order of first mention', () => {
    expect(mentionedUsernames('@ccc @aaa @ccc @bbb @ddd', 2)).toEqual(['ccc', 'aaa']);
  });

  it('reads a large post of backticks quickly', () => {
    const text = `${'`a'.repeat(40_000)} ${'``b'.repeat(10_000)} @alice`;
    const started = performance.now();
    mentionedUsernames(text);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('mentionsAnyone', () => {
  it.each([
    ['hi @alice', true],
    ['no at sign', false],
    ['mail bob@example.com, code `@alice`, short @ab', false],
    ['```\n@alice\n```\nthen @bob', true],
  ])('%j: %s', (text, expected) => {
    expect(mentionsAnyone(text)).toBe(expected);
  });
});
