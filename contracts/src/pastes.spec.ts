import { createPasteQuerySchema, formatBytes, PASTE_MAX_BYTES_DEFAULT, PASTE_MESSAGES } from './pastes.js';

describe('paste intake texts', () => {
  it('names a size in the unit it is a whole number of', () => {
    expect(formatBytes(PASTE_MAX_BYTES_DEFAULT)).toBe('1 MiB');
    expect(formatBytes(512 * 1024)).toBe('512 KiB');
    expect(formatBytes(1000)).toBe('1000 bytes');
    expect(formatBytes(1)).toBe('1 byte');
  });

  it('says the limit in the 413 message', () => {
    expect(PASTE_MESSAGES.tooLarge(PASTE_MAX_BYTES_DEFAULT)).toBe(
      'Paste is too large: at most 1 MiB (1048576 bytes)',
    );
    expect(PASTE_MESSAGES.tooLarge(1000)).toBe('Paste is too large: at most 1000 bytes');
  });

  it('quotes an unknown language, cut to 64 characters', () => {
    expect(PASTE_MESSAGES.unknownLanguage('klingon')).toContain('"klingon"');
    expect(PASTE_MESSAGES.unknownLanguage('x'.repeat(100))).toContain(`"${'x'.repeat(64)}…"`);
  });
});

describe('POST /api/pastes query string', () => {
  it('takes a title and a language; absent, empty, repeated or nested is none', () => {
    expect(createPasteQuerySchema.parse({ title: 'build log', lang: 'py' })).toEqual({
      title: 'build log',
      lang: 'py',
    });
    for (const value of [undefined, '', ['a', 'b'], { a: 'b' }]) {
      expect(createPasteQuerySchema.parse({ title: value, lang: value })).toEqual({
        title: undefined,
        lang: undefined,
      });
    }
  });
});
