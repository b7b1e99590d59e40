import { z } from 'zod';
import { ID_MAX } from './text.js';

/**
 * Who may read a paste, and for how long: the one rule every route that returns a paste asks (threads/
 * visibility.ts says it in SQL). What each visibility means: docs/permissions.md.
 */
export const VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export const visibilitySchema = z.enum(VISIBILITIES, {
  error: () => `Visibility must be one of ${VISIBILITIES.join(', ')}`,
});
export type Visibility = z.infer<typeof visibilitySchema>;

/** How long a paste lives, and each choice's length in seconds (`never`: null). */
export const EXPIRES_IN = {
  '10m': 600,
  '1h': 3_600,
  '1d': 86_400,
  '1w': 604_800,
  '1mo': 2_592_000,
  never: null,
} as const;
export type ExpiresIn = keyof typeof EXPIRES_IN;
export const EXPIRES_IN_CHOICES = Object.keys(EXPIRES_IN) as ExpiresIn[];
export const expiresInSchema = z.enum(EXPIRES_IN_CHOICES as [ExpiresIn, ...ExpiresIn[]], {
  error: () => `expiresIn must be one of ${EXPIRES_IN_CHOICES.join(', ')}`,
});

/** A paste's unguessable key: 16 random bytes in base64url (128 bits). */
export const PASTE_KEY_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * What names a paste in a URL or a body: its number (a public paste's) or its key (any paste's). The
 * number of a paste that is not public names nothing.
 */
export type PasteRef = number | string;
export const pasteRefSchema = z.union([
  z.number().int().positive().max(ID_MAX),
  z.string().regex(PASTE_KEY_PATTERN),
]);

/** A route's `{id}` as it came: a number, a key, or nothing a paste can be named by (null: 404). */
export function parsePasteRef(raw: string): PasteRef | null {
  if (/^[1-9][0-9]{0,9}$/.test(raw)) {
    const id = Number(raw);
    return id <= ID_MAX ? id : null;
  }
  return PASTE_KEY_PATTERN.test(raw) ? raw : null;
}

/** The facts about a paste the rule reads. */
export interface PasteAccessFacts {
  authorId: number | null;
  visibility: Visibility;
  burnAfterReading: boolean;
  /** ISO time, or null: never expires. */
  expiresAt: string | null;
  /** ISO time it was deleted (it is in the trash), or null. */
  deletedAt: string | null;
  /** ISO time it was hidden pending review (flags passed the threshold, or a spam signal), or null. */
  hiddenAt: string | null;
}

/** Whether the paste still exists for readers: not deleted, not expired at `now`. */
export function pasteAlive(
  paste: Pick<PasteAccessFacts, 'expiresAt' | 'deletedAt'>,
  now = Date.now(),
): boolean {
  return paste.deletedAt === null && (paste.expiresAt === null || Date.parse(paste.expiresAt) > now);
}

/** Whether a list (home, search, a profile seen by others, live lists) may show the paste. */
export function pasteListed(paste: PasteAccessFacts, now = Date.now()): boolean {
  return (
    paste.visibility === 'public' &&
    !paste.burnAfterReading &&
    paste.hiddenAt === null &&
    pasteAlive(paste, now)
  );
}

/** Whether `viewerId` (null: a visitor) may open the paste by its link. */
export function pasteReadableBy(paste: PasteAccessFacts, viewerId: number | null, now = Date.now()): boolean {
  if (!pasteAlive(paste, now)) return false;
  // Private and hidden pending review: its author's alone (staff read it through their own screens).
  return (
    (paste.visibility !== 'private' && paste.hiddenAt === null) ||
    (viewerId !== null && viewerId === paste.authorId)
  );
}

/** Whether a paste is named by its key rather than its number. */
export function pasteKeyed(paste: Pick<PasteAccessFacts, 'visibility' | 'burnAfterReading'>): boolean {
  return paste.visibility !== 'public' || paste.burnAfterReading;
}

/** The ref a paste is shown by (URLs, `id` in answers): its number while public, else its key. */
export function pasteRefOf(paste: {
  id: number;
  key: string | null;
  visibility: Visibility;
  burnAfterReading: boolean;
}): PasteRef {
  return pasteKeyed(paste) && paste.key !== null ? paste.key : paste.id;
}

/** What each choice means, as the forms and badges say it. */
export const VISIBILITY_TEXTS = {
  public: 'Public: listed on home, in search and on your profile',
  unlisted: 'Unlisted: anyone with the link can read it; listed nowhere',
  private: 'Private: only you can read it',
} as const satisfies Record<Visibility, string>;
