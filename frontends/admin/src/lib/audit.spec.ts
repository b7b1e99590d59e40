import { AUDIT_ACTIONS } from '@termpaste/contracts';
import { AUDIT_LABELS, describeChange, formatSnapshot, targetLink } from './audit';

describe('audit log helpers', () => {
  it('labels every action', () => {
    for (const action of AUDIT_ACTIONS) expect(AUDIT_LABELS[action]).toMatch(/^[A-Z][a-z]+( [a-z]+)+$/);
    expect(new Set(Object.values(AUDIT_LABELS)).size).toBe(AUDIT_ACTIONS.length);
  });

  it('links a paste to /thread/{id} and a member to /profile/{id}, unless the action deleted it', () => {
    expect(targetLink({ action: 'thread.pin', targetType: 'thread', targetId: 5 })).toBe('/thread/5');
    expect(targetLink({ action: 'user.ban', targetType: 'user', targetId: 9 })).toBe('/profile/9');
    expect(targetLink({ action: 'thread.delete', targetType: 'thread', targetId: 5 })).toBeNull();
    expect(targetLink({ action: 'user.delete', targetType: 'user', targetId: 9 })).toBeNull();
    expect(targetLink({ action: 'reply.delete', targetType: 'reply', targetId: 11 })).toBeNull();
  });

  it('writes a snapshot as key: value pairs', () => {
    expect(formatSnapshot(null)).toBeNull();
    expect(formatSnapshot({})).toBeNull();
    expect(formatSnapshot({ username: 'neo', isAdmin: false })).toBe('username: neo, isAdmin: false');
    expect(formatSnapshot({ grades: [] })).toBe('grades: none');
    expect(formatSnapshot({ grades: ['Cyber Ghost', 'Elite Hacker'] })).toBe(
      'grades: Cyber Ghost, Elite Hacker',
    );
    expect(formatSnapshot({ avatarUrl: null, bio: '' })).toBe('avatarUrl: ∅, bio: ""');
    expect(formatSnapshot({ nested: { a: 1 } })).toBe('nested: {"a":1}');
    expect(formatSnapshot('plain')).toBe('plain');
    expect(formatSnapshot(['a', 'b'])).toBe('a, b');
  });

  it('keeps only what changed when both sides are objects', () => {
    expect(
      describeChange({
        before: { username: 'neo', isBanned: false },
        after: { username: 'neo', isBanned: true },
      }),
    ).toEqual({ before: 'isBanned: false', after: 'isBanned: true' });
    expect(describeChange({ before: { title: 'x', isPinned: false }, after: null })).toEqual({
      before: 'title: x, isPinned: false',
      after: null,
    });
    expect(describeChange({ before: { a: 1 }, after: { a: 1 } })).toEqual({ before: 'a: 1', after: 'a: 1' });
    expect(describeChange({ before: null, after: null })).toEqual({ before: null, after: null });
  });
});
