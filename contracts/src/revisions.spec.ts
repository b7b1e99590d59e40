import { POST_MESSAGES } from './paste-views.js';
import {
  countLineChanges,
  editRefusal,
  editPasteSchema,
  purgeRefusal,
  REVISIONS_MESSAGES,
  REVISIONS_TEXTS,
  revisionLines,
  versionNames,
} from './revisions.js';

describe('editRefusal', () => {
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
    expect(editRefusal(member, { authorId: 7, locked: true })).toBe(POST_MESSAGES.pasteLocked);
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

describe('editPasteSchema', () => {
  it('takes any of the fields, each with the rules of a new paste', () => {
    expect(editPasteSchema.parse({})).toEqual({});
    expect(editPasteSchema.parse({ title: '  t  ', language: null })).toEqual({
      title: 't',
      language: null,
    });
    expect(editPasteSchema.safeParse({ title: ' ' }).success).toBe(false);
    expect(editPasteSchema.safeParse({ content: '\n' }).success).toBe(false);
  });
});

describe('purgeRefusal', () => {
  it('lets the author and an admin remove a version, a lock notwithstanding; refuses anyone else', () => {
    expect(purgeRefusal({ id: 7, isAdmin: false }, { authorId: 7 })).toBeNull();
    expect(purgeRefusal({ id: 1, isAdmin: true }, { authorId: 7 })).toBeNull();
    expect(purgeRefusal({ id: 1, isAdmin: true }, { authorId: null })).toBeNull();
    expect(purgeRefusal({ id: 8, isAdmin: false }, { authorId: 7 })).toBe(REVISIONS_MESSAGES.notYourVersion);
    expect(purgeRefusal({ id: 8, isAdmin: false }, { authorId: null })).toBe(
      REVISIONS_MESSAGES.notYourVersion,
    );
  });
});

describe('the texts of pruned and removed versions', () => {
  it('name versions as a sentence does', () => {
    expect(versionNames([])).toBe('');
    expect(versionNames([2])).toBe('v2');
    expect(versionNames([2, 3])).toBe('v2 and v3');
    expect(versionNames([2, 3, 5])).toBe('v2, v3 and v5');
  });

  it('say which versions were pruned and what lies between two compared', () => {
    expect(REVISIONS_TEXTS.pruned(2, 14)).toBe('versions 2\u201314 pruned');
    expect(REVISIONS_TEXTS.pruned(4, 4)).toBe('version 4 pruned');
    expect(REVISIONS_TEXTS.between(['versions 2\u201314 pruned'], [40])).toBe(
      'Not shown between these two: versions 2\u201314 pruned; v40 removed.',
    );
    expect(REVISIONS_TEXTS.between([], [3, 5])).toBe('Not shown between these two: v3 and v5 removed.');
  });

  it('offer to purge one version or several', () => {
    expect(REVISIONS_TEXTS.offerDescription([1])).toBe(
      'v1 still holds the secret you removed, readable by anyone. Purge the old version?',
    );
    expect(REVISIONS_TEXTS.offerDescription([1, 2])).toBe(
      'v1 and v2 still hold the secret you removed, readable by anyone. Purge the old versions?',
    );
    expect([REVISIONS_TEXTS.offerConfirm([1]), REVISIONS_TEXTS.offerKeep([1])]).toEqual([
      'PURGE THE OLD VERSION',
      'KEEP IT',
    ]);
    expect([REVISIONS_TEXTS.offerConfirm([1, 2]), REVISIONS_TEXTS.offerKeep([1, 2])]).toEqual([
      'PURGE THE OLD VERSIONS',
      'KEEP THEM',
    ]);
  });
});
