/** The mailings' jobs on the mail queue (MailModule's `jobs`, mails.ts). */
export const MAILINGS_JOBS = {
  /** Repeatable: finds the members due an away mail, claims each and queues its mail. */
  noticeSweep: 'notice-sweep',
  /** One member's away mail: `NoticeMailJob`, written when it runs. */
  noticeMail: 'notice-mail',
  /** Repeatable: finds the members due a digest, claims each and queues it. */
  digestSweep: 'digest-sweep',
  /** One member's digest: `DigestMailJob`. */
  digestMail: 'digest-mail',
} as const;

/** The away mail of `userId`: the notifications created after `since` (null: ever) up to `until`. */
export interface NoticeMailJob {
  userId: number;
  since: string | null;
  until: string;
}

/** The digest of `userId`: the top pastes created since `since`. */
export interface DigestMailJob {
  userId: number;
  since: string;
}

/** Members claimed per sweep: the rest wait for the next one. */
export const SWEEP_BATCH = 200;
/** How often the digests' sweep runs. */
export const DIGEST_SWEEP_MS = 15 * 60_000;
/** Notifications in one away mail at most (the rest: "and N more" on the notifications page). */
export const NOTICE_MAIL_ITEMS_MAX = 50;
/**
 * Only notifications this recent are looked at by the sweep: the unread index is scanned over a week at
 * most, however many old notifications members never read.
 */
export const NOTICE_MAIL_LOOKBACK_MS = 7 * 86_400_000;
/** Pastes in one digest. */
export const DIGEST_PASTES = 10;

/** The sweeps' schedules (repeatable jobs) on the mail queue. */
export const NOTICE_MAILS_SCHEDULE = 'notice-mails';
export const DIGEST_MAILS_SCHEDULE = 'digest-mails';
