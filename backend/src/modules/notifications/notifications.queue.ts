/**
 * The notification fan-out queue and its jobs. A job carries only the id of its source (a new paste, reply
 * or private message): the processor reads the row and derives the recipients, so a job is small, and one
 * whose source was deleted in the meantime does nothing.
 */
export const NOTIFICATIONS_QUEUE = 'notifications';

export const NOTIFICATION_JOBS = {
  /** @mentions in a new paste. */
  thread: 'thread',
  /** A new reply: its paste's author, the author of the reply answered, and @mentions. */
  reply: 'reply',
  /** A new private message: its recipient. */
  message: 'message',
} as const;

export interface ThreadJobData {
  threadId: number;
}
export interface ReplyJobData {
  replyId: number;
}
export interface MessageJobData {
  messageId: number;
}

/**
 * The job id of a source: enqueueing the same source twice (a retried request) adds one job. Job ids may
 * not hold `:` nor be numeric (JobOptions.jobId).
 */
export const notificationJobId = (kind: keyof typeof NOTIFICATION_JOBS, id: number) => `${kind}-${id}`;

/** The source key of the notifications about a post or message: one per member and source. */
export const notificationSource = (kind: keyof typeof NOTIFICATION_JOBS, id: number) => `${kind}:${id}`;
