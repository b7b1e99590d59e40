import {
  createPasteQuerySchema,
  mergeTagSchema,
  TAG_MESSAGES,
  tagsOfQuery,
  tagsQuerySchema,
  tagsSchema,
} from './index.js';

const errorOf = (value: unknown) => tagsSchema.safeParse(value).error?.issues[0]?.message;

describe('tagsSchema', () => {
  it('trims, lower-cases and drops repeats', () => {
    expect(tagsSchema.parse([' Python ', 'python', 'bash-4'])).toEqual(['python', 'bash-4']);
  });

  it('refuses a name outside a-z, 0-9 and -, or of 1 or 31 characters', () => {
    expect(errorOf(['c++'])).toBe(TAG_MESSAGES.badName('c++'));
    expect(errorOf(['x'])).toBe(TAG_MESSAGES.badName('x'));
    expect(errorOf(['a'.repeat(31)])).toBe(TAG_MESSAGES.badName('a'.repeat(31)));
    expect(tagsSchema.parse(['a'.repeat(30)])).toEqual(['a'.repeat(30)]);
  });

  it('refuses a sixth tag, but not five and a repeat', () => {
    expect(errorOf(['aa', 'bb', 'cc', 'dd', 'ee', 'ff'])).toBe(TAG_MESSAGES.tooMany);
    expect(tagsSchema.parse(['aa', 'bb', 'cc', 'dd', 'ee', 'EE'])).toHaveLength(5);
  });

  it('refuses what is not a list of names', () => {
    expect(errorOf('python')).toBe(TAG_MESSAGES.notAList);
    expect(errorOf([3])).toBe(TAG_MESSAGES.notAList);
  });
});

describe('?tags= on POST /api/pastes', () => {
  it('splits at commas, dropping blank pieces; absent or blank is none', () => {
    expect(tagsOfQuery('python, ci,,')).toEqual(['python', 'ci']);
    expect(tagsOfQuery('')).toBeUndefined();
    expect(tagsOfQuery(['a', 'b'])).toBeUndefined();
    expect(createPasteQuerySchema.parse({ tags: 'Python,CI,python' }).tags).toEqual(['python', 'ci']);
    expect(createPasteQuerySchema.parse({}).tags).toBeUndefined();
  });

  it("refuses a bad name with tagsSchema's text", () => {
    const issue = createPasteQuerySchema.safeParse({ tags: 'ok,c++' }).error?.issues[0];
    expect(issue?.message).toBe(TAG_MESSAGES.badName('c++'));
  });
});

describe('the tag lists and the admins', () => {
  it('reads a suggestion prefix trimmed and lower-cased; blank is none', () => {
    expect(tagsQuerySchema.parse({ q: ' Py ' })).toEqual({ q: 'py' });
    expect(tagsQuerySchema.parse({ q: ' ' })).toEqual({ q: undefined });
  });

  it('merges only into a well-formed name', () => {
    expect(mergeTagSchema.parse({ into: ' Main ' })).toEqual({ into: 'main' });
    expect(mergeTagSchema.safeParse({ into: 'c++' }).error?.issues[0]?.message).toBe(
      TAG_MESSAGES.badName('c++'),
    );
  });
});
