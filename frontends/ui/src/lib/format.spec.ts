import { emailPrefix, initials, relativeTime, shortDate } from './format.js';

describe('initials', () => {
  it.each([
    [{ firstName: 'ada', lastName: 'lovelace', email: 'x@y.z' }, 'AL'],
    [{ firstName: 'ada', lastName: null, email: 'x@y.z' }, 'A'],
    [{ firstName: 'ada' }, 'A'],
    [{ lastName: 'lovelace', email: 'zero@cool.net' }, 'Z'],
    [{ email: 'neo@matrix.io' }, 'N'],
    [{ firstName: '  ', lastName: '  ', email: '  trinity@x.io ' }, 'T'],
    [{ firstName: ' grace ', lastName: ' hopper ' }, 'GH'],
    [{}, '?'],
    [{ email: '' }, '?'],
    [{ username: 'morpheus' }, 'M'],
    [{ email: 'neo@matrix.io', username: 'morpheus' }, 'N'],
  ])('%j → %s', (user, expected) => {
    expect(initials(user)).toBe(expected);
  });

  it('is ? without a user', () => {
    expect(initials(null)).toBe('?');
    expect(initials(undefined)).toBe('?');
  });

  it('keeps a character outside the basic plane whole', () => {
    expect(initials({ firstName: '𝔸da' })).toBe('𝔸');
  });
});

describe('relativeTime', () => {
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);

  it('reads like "about 2 hours ago"', () => {
    expect(relativeTime(hoursAgo(2))).toBe('about 2 hours ago');
    expect(relativeTime(hoursAgo(2).toISOString())).toBe('about 2 hours ago');
  });

  it('says "in …" for a future date', () => {
    expect(relativeTime(hoursAgo(-2))).toBe('in about 2 hours');
  });

  it.each([null, undefined, '', 'not a date', new Date(Number.NaN)])('says never for %p', (value) => {
    expect(relativeTime(value)).toBe('never');
  });
});

describe('emailPrefix', () => {
  it('keeps the part before the @', () => {
    expect(emailPrefix('zero.cool@hackers.net')).toBe('zero.cool');
  });

  it('keeps a text without @ whole', () => {
    expect(emailPrefix('localuser')).toBe('localuser');
  });

  it('falls back for a missing, blank or prefix-less e-mail', () => {
    expect(emailPrefix(null)).toBe('');
    expect(emailPrefix(undefined, 'Guest')).toBe('Guest');
    expect(emailPrefix('  ', 'User')).toBe('User');
    expect(emailPrefix('@host', 'User')).toBe('User');
  });
});

describe('shortDate', () => {
  it('reads like a calendar date, and is empty for an invalid one', () => {
    expect(shortDate('2026-01-05T12:00:00.000Z')).toBe('Jan 5, 2026');
    expect(shortDate(new Date(2025, 11, 31, 23, 59))).toBe('Dec 31, 2025');
    expect(shortDate(new Date(2026, 4, 17))).toBe('May 17, 2026');
    expect(shortDate('not a date')).toBe('');
  });
});
