import { FORUM_MESSAGES } from './forum.js';
import {
  countLineChanges,
  editRefusal,
  editThreadSchema,
  REVISIONS_MESSAGES,
  revisionLines,
} from './revisions.js';

describe('editRefusal (issue 16)', () => {
  const member = { id: 7, isAdmin: false };
  const admin = { id: 1, isAdmin: true };

  it('lets the author edit, and an admin, anything not theirs included', () => {
    expect(editRefusal(member, { authorId: 7, locked: false })).toBeNull();
    expect(editRefusal(admin, { authorId: 7, locked: false })).toBeNull();
    expect(editRefusal(admin, { authorId: null, locked: true })).toBeNull();
  });

  it('refuses another member, and the author under a lock', () => {
    expect(editRefusal(member, { authorId: 8, locked: false })).toBe(REVISIONS_MESSAGES.notYourPost);
    expect(editRefusal(member, { authorId: null, locked: false })).toBe(REVISIONS_MESSAGES.notYourPost);
    expect(editRefusal(member, { authorId: 7, locked: true })).toBe(FORUM_MESSAGES.threadLocked);
  });
});

describe('revisionLines and countLineChanges', () => {
  it('split at line feeds, a final one ending the last line', () => {
    expect(revisionLines('')).toEqual([]);
    expect(revisionLines('a')).toEqual(['a']);
    expect(revisionLines('a\n')).toEqual(['a']);
    expect(revisionLines('a\n\n')).toEqual(['a', '']);
    expect(revisionLines('a\r\nb')).toEqual(['a\r', 'b']);
  });

  it('count added and removed lines of a change list', () => {
    expect(
      countLineChanges([
        { count: 2 },
        { added: true, count: 3 },
        { removed: true, count: 1 },
        { added: true, count: 1 },
      ]),
    ).toEqual({ added: 4, removed: 1 });
  });
});

describe('editThreadSchema', () => {
  it('takes any of the fields, each with the rules of a new paste', () => {
    expect(editThreadSchema.parse({})).toEqual({});
    expect(editThreadSchema.parse({ title: '  t  ', language: null })).toEqual({
      title: 't',
      language: null,
    });
    expect(editThreadSchema.safeParse({ title: ' ' }).success).toBe(false);
    expect(editThreadSchema.safeParse({ content: '\n' }).success).toBe(false);
  });
});
