/**
 * The Akismet queue: one job per published paste or reply while AKISMET_KEY is set (posting never waits
 * on the check), written to the outbox in the post's own transaction.
 */
export const AKISMET_QUEUE = 'akismet';
export const AKISMET_CHECK_JOB = 'comment-check';

/** What the check sends about one post, as the request that made it gave it. */
export interface AkismetCheckJob {
  targetType: 'paste' | 'reply';
  targetId: number;
  /** The paste a reply is on (the paste itself for a paste). */
  threadId: number;
  authorId: number;
  authorName: string;
  authorEmail: string;
  /** A paste's title (null for a reply), for the author's notification. */
  title: string | null;
  content: string;
  /** The poster's address and user agent, as the request carried them. */
  ip: string | null;
  userAgent: string | null;
}
