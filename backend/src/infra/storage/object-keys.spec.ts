import {
  isAvatarKey,
  isPendingKey,
  keyUnder,
  newAvatarKey,
  newPendingKey,
  objectKeyOwner,
  parseObjectKey,
  sniffImageType,
} from './object-keys.js';

describe('object keys', () => {
  it('makes unguessable keys of the member, for avatars and for uploads until claimed', () => {
    const avatar = newAvatarKey(42);
    expect(avatar).toMatch(/^avatars\/42\/[A-Za-z0-9_-]{22}$/);
    expect(parseObjectKey(avatar)).toEqual({ kind: 'avatars', userId: 42 });
    expect(isAvatarKey(avatar)).toBe(true);
    expect(isPendingKey(avatar)).toBe(false);
    expect(newAvatarKey(42)).not.toBe(avatar);

    const pending = newPendingKey(42);
    expect(pending).toMatch(/^pending\/42\/[A-Za-z0-9_-]{22}$/);
    expect(parseObjectKey(pending)).toEqual({ kind: 'pending', userId: 42 });
    expect(isPendingKey(pending)).toBe(true);
    expect(isAvatarKey(pending)).toBe(false);
    expect(newPendingKey(42)).not.toBe(pending);
  });

  it.each([
    '',
    'avatars/42',
    'avatars/42/',
    'avatars/0/abcdefghijklmnopqrstuv',
    'avatars/042/abcdefghijklmnopqrstuv',
    'avatars/99999999999/abcdefghijklmnopqrstuv',
    'avatars/42/abcdefghijklmnopqrstu',
    'avatars/42/abcdefghijklmnopqrstuvw',
    'avatars/42/abcdefghijklmnopqrst.v',
    'avatars/42/../43/abcdefghijklmnopqrst',
    'avatars/42/abcdefghijklmnopqrstuv/x',
    '/avatars/42/abcdefghijklmnopqrstuv',
    'avatars/42/abcdefghijklmnopq%2Fstuv',
    'avatars\\42\\abcdefghijklmnopqrstuv',
    'Avatars/42/abcdefghijklmnopqrstuv',
    'avatars/42/abcdefghijklmnopqrstuv\n',
    'Pending/42/abcdefghijklmnopqrstuv',
    'pending/42/abcdefghijklmnopqrstu',
    'pending/42/../43/abcdefghijklmnopqrst',
    'uploads/42/abcdefghijklmnopqrstuv',
    '.tmp/42/abcdefghijklmnopqrstuv',
  ])('refuses the key %j', (key) => {
    expect(objectKeyOwner(key)).toBeNull();
    expect(isAvatarKey(key) || isPendingKey(key)).toBe(false);
  });

  it('finds a key under a base, ignoring the query, and nothing elsewhere', () => {
    const base = 'http://localhost:3000/api/uploads/';
    const key = 'avatars/42/abcdefghijklmnopqrstuv';
    expect(keyUnder(`${base}${key}?expires=1&sig=x#y`, [base])).toBe(key);
    expect(keyUnder(`${base}pending/42/abcdefghijklmnopqrstuv`, [base])).toBe(
      'pending/42/abcdefghijklmnopqrstuv',
    );
    expect(keyUnder(`http://localhost:3001/api/uploads/${key}`, [base])).toBeNull();
    expect(keyUnder(`http://localhost:3000/api/uploads/x/../${key}`, [base])).toBe(key); // URL-normalised
    expect(
      keyUnder(`http://localhost:3000/api/uploads/avatars/42/%61bcdefghijklmnopqrstuv`, [base]),
    ).toBeNull();
  });

  it.each([
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/png'],
    [[0xff, 0xd8, 0xff, 0xe0], 'image/jpeg'],
    [[...Buffer.from('GIF89a')], 'image/gif'],
    [[...Buffer.from('GIF87a')], 'image/gif'],
    [[...Buffer.from('RIFF'), 1, 2, 3, 4, ...Buffer.from('WEBP')], 'image/webp'],
    [[...Buffer.from('RIFF'), 1, 2, 3, 4, ...Buffer.from('WAVE')], null],
    [[0x89, 0x50, 0x4e, 0x47], null],
    [[...Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">')], null],
    [[...Buffer.from('GIF90a')], null],
    [[], null],
  ])('sniffs %j as %s', (bytes, type) => {
    expect(sniffImageType(Uint8Array.from(bytes))).toBe(type);
  });
});
