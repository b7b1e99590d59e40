import { randomBytes } from 'node:crypto';
import type { AvatarContentType } from '@termpaste/contracts';

/**
 * Object keys: `<kind>/<userId>/<random>` (22 base64url characters). Uploads land under `pending/` (the
 * only keys a form is signed for); a claim copies to a fresh `avatars/` key, so an avatar never changes.
 * Every key is checked against this exact shape, so nothing else (`..`, an extra slash) can name a file.
 */
const OBJECT_KEY = /^(avatars|pending)\/([1-9]\d{0,9})\/([A-Za-z0-9_-]{22})$/;

const MAX_INT = 2_147_483_647;

export type ObjectKind = 'avatars' | 'pending';

const newKey = (kind: ObjectKind, userId: number) =>
  `${kind}/${userId}/${randomBytes(16).toString('base64url')}`;

/** A new, unguessable key for an avatar of `userId` (a claimed upload's copy). */
export function newAvatarKey(userId: number): string {
  return newKey('avatars', userId);
}

/** A new, unguessable key for an upload of `userId`, until it is claimed. */
export function newPendingKey(userId: number): string {
  return newKey('pending', userId);
}

/**
 * A member's data export archive: `exports/<userId>/<random>.zip`. Kept apart from the avatar and upload
 * keys: no form is signed for one, no public URL names one, and only the backend reads it back.
 */
const EXPORT_KEY = /^exports\/([1-9]\d{0,9})\/([A-Za-z0-9_-]{22})\.zip$/;

/** A new, unguessable key for an export archive of `userId`. */
export function newExportKey(userId: number): string {
  return `exports/${userId}/${randomBytes(16).toString('base64url')}.zip`;
}

export function isExportKey(key: string): boolean {
  const match = EXPORT_KEY.exec(key);
  return match !== null && Number(match[1]) <= MAX_INT;
}

/** The kind and owner of a well-formed key, or null for anything that is not one of our keys. */
export function parseObjectKey(key: string): { kind: ObjectKind; userId: number } | null {
  const match = OBJECT_KEY.exec(key);
  if (!match) return null;
  const userId = Number(match[2]);
  return userId <= MAX_INT ? { kind: match[1] as ObjectKind, userId } : null;
}

/** The owner of a well-formed key (avatar or pending upload), or null for anything else. */
export function objectKeyOwner(key: string): number | null {
  return parseObjectKey(key)?.userId ?? null;
}

export function isObjectKey(key: string): boolean {
  return parseObjectKey(key) !== null;
}

export function isAvatarKey(key: string): boolean {
  return parseObjectKey(key)?.kind === 'avatars';
}

export function isPendingKey(key: string): boolean {
  return parseObjectKey(key)?.kind === 'pending';
}

/**
 * The key of `url` when it is `<base><key>` (query and fragment ignored) with a well-formed key (avatar
 * or pending upload), else null. `bases` end with a slash.
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
    if (isObjectKey(key)) return key;
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

/**
 * The Content-Type every upload is signed for, whatever the file: an upload not yet checked is never
 * served as something a browser renders (HTML, SVG). Its claimed copy gets the type its bytes tell.
 */
export const PENDING_CONTENT_TYPE = 'application/octet-stream';
