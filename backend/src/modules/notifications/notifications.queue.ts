import type { OutboxJob, OutboxJobSql } from '../../infra/outbox/outbox.js';
import type { NewNotification } from './notifications.service.js';

/**
 * The fan-out queue. A job carries only its source's id (paste, reply or message), so it is small and one
 * whose source was deleted does nothing. Jobs go through the outbox, in the post's own transaction.
 */
export const NOTIFICATIONS_QUEUE = 'notifications';

export const NOTIFICATION_JOBS = {
  /** @mentions in a new paste (and who else hears of it: NoticeRegistry's audiences). */
  thread: 'thread',
  /** A new paste that mentions nobody: only the audiences (its author's followers, its tags' watchers). */
  paste: 'paste',
  /** A new reply: its paste's author, the author of the reply answered, and @mentions. */
  reply: 'reply',
  /** A new private message: its recipient. */
  message: 'message',
} as const;

export interface PasteJobData {
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

/** The data key of each job's source id. */
const ID_KEYS = { thread: 'threadId', paste: 'threadId', reply: 'replyId', message: 'messageId' } as const;

/** The outbox job of a new paste, reply or message: `OutboxService.add(manager, notificationJob(…))`. */
export function notificationJob(kind: keyof typeof NOTIFICATION_JOBS, id: number): OutboxJob {
  return {
    queue: NOTIFICATIONS_QUEUE,
    name: NOTIFICATION_JOBS[kind],
    data: { [ID_KEYS[kind]]: id },
    jobId: notificationJobId(kind, id),
  };
}

/**
 * The same job for `outboxInsertSql(from, …)`, inside the statement that writes the source: `id` is the
 * source's id column in `from`, `traceparent` the statement's parameter given `traceparent()`. Gives what
 * `notificationJob` gives.
 */
export function notificationJobSql(
  kind: keyof typeof NOTIFICATION_JOBS,
  traceparent: string,
  id = 'id',
): OutboxJobSql {
  return {
    queue: NOTIFICATIONS_QUEUE,
    name: NOTIFICATION_JOBS[kind],
    data: { [ID_KEYS[kind]]: id },
    // notificationJobId's `${kind}-${id}`.
    jobId: { prefix: `${kind}-`, column: id },
    traceparent,
  };
}

/**
 * Notices written out whole (a moderation decision's, a hidden post's): the job carries them, and the
 * processor creates each once per member and source, so running it twice creates nothing new.
 */
export const NOTICES_JOB = 'notices';

export interface NoticesJobData {
  notices: NewNotification[];
}

/** The outbox job of `notices`, named by `key` (letters, digits and dashes: one job per key). */
export function noticesJob(key: string, notices: NewNotification[]): OutboxJob {
  return {
    queue: NOTIFICATIONS_QUEUE,
    name: NOTICES_JOB,
    data: { notices } satisfies NoticesJobData,
    jobId: `notices-${key}`,
  };
}
