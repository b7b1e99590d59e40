import { z } from 'zod';
import { ID_MAX } from './text.js';

/**
 * Who may read a paste, and for how long: the one rule every route that can return a paste asks (the
 * backend's SQL in backend/src/modules/threads/visibility.ts says the same in the database's words).
 *
 * - `public`: anyone; listed (home, search, profiles, live lists).
 * - `unlisted`: anyone holding its link; listed nowhere, its page says `noindex`.
 * - `private`: its author only (admins through the moderation screens, audit-logged).
 *
 * A paste that is not public, or burns after reading, is known by its unguessable key (PASTE_KEY_PATTERN)
 * and never by its number, so its link cannot be found by counting.
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
/** The words a form shows for each choice. */
export const EXPIRES_IN_LABELS: Record<ExpiresIn, string> = {
  '10m': '10 minutes',
  '1h': '1 hour',
  '1d': '1 day',
  '1w': '1 week',
  '1mo': '1 month',
  never: 'Never',
};

/** A paste's unguessable key: 16 random bytes in base64url (128 bits). */
export const PASTE_KEY_LENGTH = 22;
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
  return paste.visibility === 'public' && !paste.burnAfterReading && pasteAlive(paste, now);
}

/** Whether `viewerId` (null: a visitor) may open the paste by its link. */
export function pasteReadableBy(paste: PasteAccessFacts, viewerId: number | null, now = Date.now()): boolean {
  if (!pasteAlive(paste, now)) return false;
  return paste.visibility !== 'private' || (viewerId !== null && viewerId === paste.authorId);
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

/** Texts of a post's life: visibility, expiry, burning, deleting, forking, the account. */
export const OWN_POSTS_TEXTS = {
  visibility: {
    public: 'Public: listed on home, in search and on your profile',
    unlisted: 'Unlisted: anyone with the link can read it; listed nowhere',
    private: 'Private: only you can read it',
  } satisfies Record<Visibility, string>,
  burnWarning: 'This paste will be deleted after you view it',
  burnShow: 'SHOW AND DELETE',
  /** Beside the add-paste form's checkbox. */
  burnHint: 'Deleted the moment its first reader other than you is shown it; replies are off',
  /** A burning paste's page, to its author. */
  burnNote: 'burns after reading',
  /** Above the content a reader has just burnt. */
  burnShown: 'This paste is now deleted. It shows here once: leave or reload the page and it is gone.',
  /** An open page whose paste expired meanwhile. */
  expired: 'This paste has expired: it is gone for everyone.',
  replyDeleted: '[deleted by its author]',
  fork: 'FORK',
  forkedFrom: 'forked from',
  forkedFromDeleted: 'forked from a deleted paste',
  /** The original's fork count, beside the list of its public forks. */
  forks: (count: number) => `${count} ${count === 1 ? 'fork' : 'forks'}`,
  forkFormTitle: 'FORK PASTE',
  forkSubmit: 'FORK',
  forkCreated: 'Paste forked',
  deletedMember: 'deleted member',
  /** The author's delete buttons and their confirm prompts. */
  deleteButton: 'DELETE',
  confirmDeletePaste: 'Delete this paste?',
  confirmDeletePasteDetail:
    'It leaves every list at once, with its replies and versions. Staff can restore it for 30 days.',
  confirmDeleteReply: 'Delete this reply?',
  confirmDeleteReplyDetail: 'Replies under it stay, under [deleted by its author].',
  /** The staff's trash (admin remote). */
  trash: {
    title: 'TRASH',
    intro:
      'Pastes and replies deleted in the last 30 days, newest first. After 30 days they are removed for good.',
    empty: 'The trash is empty.',
    restore: 'RESTORE',
    confirmRestorePaste: 'Restore this paste?',
    confirmRestoreReply: 'Restore this reply?',
    confirmRestoreDetail: 'It comes back where it was, with its counts and the reputation it earned.',
    paste: 'paste',
    reply: 'reply',
    deletedBy: 'deleted by',
    more: 'MORE',
  },
} as const;

export const OWN_POSTS_MESSAGES = {
  /** 403: deleting another member's paste or reply by the members' route. */
  notYourPaste: 'You can only delete your own pastes',
  notYourReply: 'You can only delete your own replies',
  /** 403: replying to a paste that burns after reading. */
  burnNoReplies: 'Replies are off for a paste that burns after reading',
  /** 403: voting on a paste that burns after reading (nobody but its author has seen it). */
  burnNoVotes: 'Votes are off for a paste that burns after reading',
  /** 403: an admin changing who may read another member's paste. */
  notYourVisibility: 'Only its author can change who may read a paste',
  threadDeleted: 'Paste deleted',
  replyDeleted: 'Reply deleted',
  threadRestored: 'Paste restored',
  replyRestored: 'Reply restored',
  /** 404 of a restore: the post is not in the trash (never deleted, or removed for good). */
  notInTrash: 'This post is not in the trash',
} as const;

/** Days a deleted paste or reply stays in the trash (staff may restore it), before the purge removes it. */
export const TRASH_DAYS = 30;
/** Entries per page of the trash. */
export const TRASH_PAGE_SIZE = 25;
