import { escapeControl, escapeFields, escapeStack } from './escape.js';

describe('escapeControl', () => {
  it('writes every C0, DEL, C1 and line-separator character as an escape, and leaves other text be', () => {
    expect(escapeControl('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
    expect(escapeControl('\x1b[31mred\x1b[0m')).toBe('\\x1b[31mred\\x1b[0m');
    expect(escapeControl('\0\x07\x7f\x85\x9b')).toBe('\\x00\\x07\\x7f\\x85\\x9b');
    expect(escapeControl('x\u2028y\u2029z')).toBe('x\\u2028y\\u2029z');
    expect(escapeControl('ünïcødé 🐘 \\ "quotes"')).toBe('ünïcødé 🐘 \\ "quotes"');
  });
});

describe('escapeStack', () => {
  it("keeps the newlines between a stack's frames, escapes the others", () => {
    const stack = 'Error: bad\n[Nest] forged\n    at one (a.js:1:1)\n    at two (b.js:2:2)';
    expect(escapeStack(stack)).toBe(
      'Error: bad\\n[Nest] forged\n    at one (a.js:1:1)\n    at two (b.js:2:2)',
    );
  });
});

describe('escapeFields', () => {
  it('escapes strings in plain objects and arrays, keys too, and leaves other objects to their serializers', () => {
    const error = new Error('x\ny');
    const fields = escapeFields({
      msg: 'a\nb',
      list: ['c\rd', 1, null],
      nested: { 'k\ne': { deep: '\x1b' } },
      err: { stack: 'Error: e\nf\n    at g (h.js:1:1)' },
      error,
    });
    expect(fields).toEqual({
      msg: 'a\\nb',
      list: ['c\\rd', 1, null],
      nested: { 'k\\ne': { deep: '\\x1b' } },
      err: { stack: 'Error: e\\nf\n    at g (h.js:1:1)' },
      error,
    });
    expect((fields as { error: Error }).error).toBe(error);
  });
});
