import type { ExpiresIn } from './visibility.js';

/*
 * The texts of a post's life (expiry, burning, deleting, forking, the trash) and their error messages:
 * apart from visibility.ts, whose schemas every page's contracts hold, so that the browser fetches these
 * with the first screen that shows one (the paste, its forms, the trash) rather than on every first visit.
 */

/** The words a form shows for each expiry choice. */
export const EXPIRES_IN_LABELS: Record<ExpiresIn, string> = {
  '10m': '10 minutes',
  '1h': '1 hour',
  '1d': '1 day',
  '1w': '1 week',
  '1mo': '1 month',
  never: 'Never',
};

/** Texts of a post's life: expiry, burning, deleting, forking, the trash. */
export const OWN_POSTS_TEXTS = {
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
  deletedUser: 'deleted member',
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
  pasteDeleted: 'Paste deleted',
  replyDeleted: 'Reply deleted',
  pasteRestored: 'Paste restored',
  replyRestored: 'Reply restored',
  /** 404 of a restore: the post is not in the trash (never deleted, or removed for good). */
  notInTrash: 'This post is not in the trash',
} as const;

/** Days a deleted paste or reply stays in the trash (staff may restore it), before the purge removes it. */
export const TRASH_DAYS = 30;
/** Entries per page of the trash. */
export const TRASH_PAGE_SIZE = 25;
