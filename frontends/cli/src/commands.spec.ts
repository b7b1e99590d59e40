import { UsageError } from './errors.js';
import { listing, pasteRef } from './commands.js';

describe('pasteRef', () => {
  it('takes a number on the configured forum', () => {
    expect(pasteRef('42', 'http://forum.test')).toEqual({ base: 'http://forum.test', id: '42' });
    expect(() => pasteRef('42', undefined)).toThrow(UsageError);
  });

  it("takes a paste's page or raw URL, on its own forum (a path prefix kept)", () => {
    expect(pasteRef('https://other.test/thread/7', 'http://forum.test')).toEqual({
      base: 'https://other.test',
      id: '7',
    });
    expect(pasteRef('http://h.test/forum/api/threads/9/raw', undefined)).toEqual({
      base: 'http://h.test/forum',
      id: '9',
    });
  });

  it('refuses anything else as wrong usage', () => {
    for (const ref of ['abc', 'http://h.test/user/3', 'ftp://h.test/thread/3', '4x'])
      expect(() => pasteRef(ref, 'http://forum.test')).toThrow(
        new UsageError(`not a paste id or paste URL: ${ref}`),
      );
  });
});

describe('listing', () => {
  it('one line a paste, in columns: number, date (UTC), title, URL', () => {
    expect(
      listing(
        [
          { id: 12, title: 'build log', createdAt: '2026-11-25T06:40:12.000Z' },
          { id: 3, title: 'a\ttitle', createdAt: '2026-01-02T03:04:05.000Z' },
        ],
        'http://forum.test',
      ),
    ).toBe(
      '#12  2026-11-25 06:40  build log  http://forum.test/thread/12\n' +
        '#3   2026-01-02 03:04  a title    http://forum.test/thread/3\n',
    );
  });
});
