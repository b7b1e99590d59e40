import { EXPIRES_IN_CHOICES, PASTE_KEY_PATTERN, VISIBILITIES } from '@termpaste/contracts';
import { UsageError } from './errors.js';
import {
  changeBody,
  EXPIRY_CHOICES,
  expiryOf,
  listing,
  markDashedKeys,
  PASTE_KEY,
  pasteQuery,
  tagsOf,
  pasteRef,
  refValue,
  visibilityOf,
} from './commands.js';

const KEY = 'Zk3q9XyL0aBcDe-FgHi_Lm';

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

  it("takes a paste's key, bare or in its URL", () => {
    expect(pasteRef(KEY, 'http://forum.test')).toEqual({ base: 'http://forum.test', id: KEY });
    expect(pasteRef(` ${KEY}\n`, 'http://forum.test')).toEqual({ base: 'http://forum.test', id: KEY });
    expect(pasteRef(`https://h.test/thread/${KEY}`, undefined)).toEqual({ base: 'https://h.test', id: KEY });
    expect(pasteRef(`https://h.test/api/threads/${KEY}/raw`, undefined)).toEqual({
      base: 'https://h.test',
      id: KEY,
    });
    expect(() => pasteRef(KEY, undefined)).toThrow(
      new UsageError('no forum URL: run `termpaste login --url URL`, or set TERMPASTE_URL'),
    );
  });

  it('takes a key that starts with - (marked before the option parser sees it)', () => {
    const dashed = '-k3q9XyL0aBcDe-FgHi_Lm';
    expect(markDashedKeys(['delete', dashed, '--json'])).toEqual(['delete', `key:${dashed}`, '--json']);
    expect(markDashedKeys(['get', '--', dashed])).toEqual(['get', '--', dashed]);
    expect(markDashedKeys(['--allow-secrets', '-t', 'x', `${dashed}x`])).toEqual([
      '--allow-secrets',
      '-t',
      'x',
      `${dashed}x`,
    ]);
    for (const ref of [`key:${dashed}`, dashed])
      expect(pasteRef(ref, 'http://forum.test')).toEqual({ base: 'http://forum.test', id: dashed });
    expect(() => pasteRef('key:42', 'http://forum.test')).toThrow(UsageError);
  });

  it('is the contracts’ key pattern; a number stays a number in JSON', () => {
    expect(PASTE_KEY.source).toBe(PASTE_KEY_PATTERN.source);
    expect([refValue('42'), refValue(KEY)]).toEqual([42, KEY]);
  });

  it('refuses anything else as wrong usage', () => {
    for (const ref of [
      'abc',
      'http://h.test/user/3',
      'ftp://h.test/thread/3',
      '4x',
      KEY.slice(1),
      `${KEY}x`,
      'Zk3q9XyL0aBcDe+FgHi/Lm',
      `http://h.test/thread/${KEY.slice(1)}`,
    ])
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

describe('--unlisted, --private, --public', () => {
  it('give the API its visibility; none gives none (the server: public)', () => {
    expect(visibilityOf({})).toBeUndefined();
    for (const visibility of VISIBILITIES) expect(visibilityOf({ [visibility]: true })).toBe(visibility);
  });

  it('two at once is wrong usage, naming both', () => {
    expect(() => visibilityOf({ unlisted: true, private: true })).toThrow(
      new UsageError(
        '--unlisted and --private cannot be used together: a paste is public, unlisted or private',
      ),
    );
    expect(() => visibilityOf({ public: true, unlisted: true, private: true })).toThrow(
      new UsageError(
        '--public and --unlisted and --private cannot be used together: a paste is public, unlisted or private',
      ),
    );
  });
});

describe('--expire', () => {
  it('takes the contracts’ choices, in any letter case', () => {
    expect([...EXPIRY_CHOICES]).toEqual(EXPIRES_IN_CHOICES);
    for (const choice of EXPIRES_IN_CHOICES) expect(expiryOf(choice)).toBe(choice);
    expect(expiryOf(' 1H ')).toBe('1h');
    expect(expiryOf('NEVER')).toBe('never');
    expect(expiryOf(undefined)).toBeUndefined();
  });

  it.each(['2h', '', '10', '1 h', '1month', '-1d'])('refuses %j, listing the choices', (value) => {
    expect(() => expiryOf(value)).toThrow(
      new UsageError(`unknown expiry: ${value} (use 10m, 1h, 1d, 1w, 1mo or never)`),
    );
  });
});

describe('the query of a new paste', () => {
  it('is empty without options', () => {
    expect(pasteQuery({}).toString()).toBe('');
  });

  it('carries each option as POST /api/pastes names it', () => {
    expect(
      Object.fromEntries(
        pasteQuery({ lang: 'python', unlisted: true, expire: '1w', burn: true, allowSecrets: true }),
      ),
    ).toEqual({
      lang: 'python',
      visibility: 'unlisted',
      expiresIn: '1w',
      burnAfterReading: 'true',
      allowSecrets: 'true',
    });
    expect(pasteQuery({ private: true, expire: 'never' }).toString()).toBe(
      'visibility=private&expiresIn=never',
    );
  });

  it('sends --tag, repeated or a comma list, as one ?tags= list', () => {
    expect(pasteQuery({ tag: ['python', ' ci, docker ,'] }).get('tags')).toBe('python,ci,docker');
    expect(pasteQuery({ tag: [' , '] }).has('tags')).toBe(false);
    expect(tagsOf(undefined)).toBeUndefined();
  });

  it('refuses wrong usage before anything is sent', () => {
    expect(() => pasteQuery({ unlisted: true, private: true })).toThrow(UsageError);
    expect(() => pasteQuery({ expire: '1y' })).toThrow(
      new UsageError('unknown expiry: 1y (use 10m, 1h, 1d, 1w, 1mo or never)'),
    );
  });
});

describe('the body of an edit or a fork', () => {
  it('holds only what is given', () => {
    expect(changeBody({})).toEqual({});
    expect(changeBody({ json: true, allowSecrets: true })).toEqual({});
    expect(
      changeBody({ title: 'new', lang: 'sh', public: true, expire: '10m', burn: true }, 'text\n'),
    ).toEqual({
      title: 'new',
      content: 'text\n',
      language: 'sh',
      visibility: 'public',
      expiresIn: '10m',
      burnAfterReading: true,
    });
    expect(changeBody({ private: true }, '')).toEqual({ content: '', visibility: 'private' });
  });

  it('refuses two visibilities and an unknown expiry', () => {
    expect(() => changeBody({ public: true, private: true })).toThrow(
      new UsageError(
        '--public and --private cannot be used together: a paste is public, unlisted or private',
      ),
    );
    expect(() => changeBody({ expire: 'soon' })).toThrow(
      new UsageError('unknown expiry: soon (use 10m, 1h, 1d, 1w, 1mo or never)'),
    );
  });
});
