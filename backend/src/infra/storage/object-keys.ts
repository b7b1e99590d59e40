import { randomBytes } from 'node:crypto';
import type { AvatarContentType } from '@termpaste/contracts';

/**
 * Object keys: `avatars/<userId>/<random>`, the random part 22 base64url characters (128 bits). Every
 * key is checked against this exact shape before it touches a path or a bucket, so nothing else (`..`,
 * a slash too many, an encoded character) can ever name a file.
 */
const AVATAR_KEY = /^avatars\/([1-9]\d{0,9})\/([A-Za-z0-9_-]{22})$/;

const MAX_INT = 2_147_483_647;

/** A new, unguessable key for an object of `userId`. */
export function newAvatarKey(userId: number): string {
  return `avatars/${userId}/${randomBytes(16).toString('base64url')}`;
}

/** The owner of a well-formed key, or null for anything that is not one of our keys. */
export function avatarKeyOwner(key: string): number | null {
  const match = AVATAR_KEY.exec(key);
  if (!match) return null;
  const userId = Number(match[1]);
  return userId <= MAX_INT ? userId : null;
}

export function isAvatarKey(key: string): boolean {
  return avatarKeyOwner(key) !== null;
}

/**
 * The key of `url` when it is `<base><key>` (query and fragment ignored) with a well-formed key, else
 * null. `bases` end with a slash.
 */
export function keyUnder(url: string, bases: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.username || parsed.password) return null;
  const bare = `${parsed.origin}${parsed.pathname}`;
  for (const base of bases) {
    if (!bare.startsWith(base)) continue;
    const key = bare.slice(base.length);
    if (isAvatarKey(key)) return key;
  }
  return null;
}

/** How many leading bytes sniffImageType needs at most. */
export const SNIFF_BYTES = 12;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/**
 * The image type told by a file's first bytes (PNG, JPEG, GIF or WebP), whatever its name or the
 * Content-Type it came with said; null for anything else.
 */
export function sniffImageType(head: Uint8Array): AvatarContentType | null {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.length >= PNG.length && bytes.subarray(0, PNG.length).equals(PNG)) return 'image/png';
  if (bytes.length >= JPEG.length && bytes.subarray(0, JPEG.length).equals(JPEG)) return 'image/jpeg';
  const ascii = bytes.subarray(0, SNIFF_BYTES).toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'image/gif';
  if (ascii.length >= 12 && ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** How avatars are served: they never change under a key (a new upload gets a new key). */
export const AVATAR_CACHE_CONTROL = 'public, max-age=31536000, immutable';
