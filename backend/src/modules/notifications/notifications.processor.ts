import { Injectable } from '@nestjs/common';
import { MENTIONS_PER_POST_MAX } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { type QueueJob, QueueProcessor } from '../../infra/queue/queue.port.js';
import { mentionedUsernames } from './mentions.js';
import {
  type MessageJobData,
  NOTIFICATION_JOBS,
  NOTIFICATIONS_QUEUE,
  notificationSource,
  type ReplyJobData,
  type ThreadJobData,
} from './notifications.queue.js';
import { type NewNotification, NotificationsService } from './notifications.service.js';
import { authorJoin } from '../users/author-sql.js';

/**
 * Distinct candidate names looked up per post: a post naming more (non-members, mostly) than this stops
 * being read there. Bounds the lookup of a 100,000-character paste of `@x` fragments.
 */
const MENTION_CANDIDATES_MAX = 500;

function positiveId(data: unknown, key: string): number {
  const value = (data as Record<string, unknown> | null)?.[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 2_147_483_647) {
    throw new Error(`Notification job data needs a valid ${key}`);
  }
  return value;
}

/** Quoted for a notification's text. */
const quoted = (text: string) => `"${text}"`;

/**
 * The notification fan-out (queue `notifications`): reads the job's source row, derives who to tell and
 * creates the notifications once per member and source (NotificationsService.createOnce), so running a job
 * twice creates nothing new. A source deleted before the job runs: nothing to do. Nobody is notified of
 * their own post, nor of a post whose author's account is gone.
 */
@Injectable()
@QueueProcessor(NOTIFICATIONS_QUEUE)
export class NotificationsProcessor implements QueueProcessor {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notifications: NotificationsService,
  ) {}

  async process(job: QueueJob): Promise<void> {
    switch (job.name) {
      case NOTIFICATION_JOBS.thread:
        return this.thread(positiveId(job.data, 'threadId' satisfies keyof ThreadJobData));
      case NOTIFICATION_JOBS.reply:
        return this.reply(positiveId(job.data, 'replyId' satisfies keyof ReplyJobData));
      case NOTIFICATION_JOBS.message:
        return this.message(positiveId(job.data, 'messageId' satisfies keyof MessageJobData));
      default:
        throw new Error(`Unknown job "${job.name}" on the notifications queue`);
    }
  }

  /** A new paste: its @mentions. */
  private async thread(threadId: number): Promise<void> {
    const [thread]: Array<{
      title: string;
      content: string;
      author_id: number | null;
      author: string | null;
    }> = await this.dataSource.query(
      `SELECT t.title, t.content, t.author_id, a.username::text AS author
         FROM threads t ${authorJoin('a', 't.author_id')} WHERE t.id = $1`,
      [threadId],
    );
    if (!thread || thread.author_id === null || thread.author === null) return;
    const source = notificationSource('thread', threadId);
    const mentioned = await this.mentioned(thread.content, thread.author_id);
    await this.notifications.createOnce(
      mentioned.map((userId) => ({
        userId,
        type: 'mention',
        content: `${thread.author} mentioned you in ${quoted(thread.title)}`,
        threadId,
        actorId: thread.author_id,
        source,
      })),
    );
  }

  /**
   * A new reply: 'reply' to the author of the reply it answers and to the paste's author, then 'mention'
   * to the members it @mentions. One per member: a member due both gets the first (the more specific).
   */
  private async reply(replyId: number): Promise<void> {
    const [reply]: Array<{
      content: string;
      author_id: number | null;
      author: string | null;
      thread_id: number;
      title: string;
      thread_author_id: number | null;
      parent_author_id: number | null;
    }> = await this.dataSource.query(
      `SELECT r.content, r.author_id, a.username::text AS author, r.thread_id, t.title,
         t.author_id AS thread_author_id, p.author_id AS parent_author_id
       FROM replies r JOIN threads t ON t.id = r.thread_id
       ${authorJoin('a', 'r.author_id')}
       LEFT JOIN replies p ON p.id = r.parent_id
       WHERE r.id = $1`,
      [replyId],
    );
    if (!reply || reply.author_id === null || reply.author === null) return;
    const actorId = reply.author_id;
    const base = { threadId: reply.thread_id, actorId, source: notificationSource('reply', replyId) };
    const title = quoted(reply.title);
    const due: NewNotification[] = [];
    if (reply.parent_author_id !== null && reply.parent_author_id !== actorId) {
      due.push({
        ...base,
        userId: reply.parent_author_id,
        type: 'reply',
        content: `${reply.author} replied to your reply in ${title}`,
      });
    }
    if (reply.thread_author_id !== null && reply.thread_author_id !== actorId) {
      due.push({
        ...base,
        userId: reply.thread_author_id,
        type: 'reply',
        content: `${reply.author} replied to your paste ${title}`,
      });
    }
    for (const userId of await this.mentioned(reply.content, actorId)) {
      due.push({ ...base, userId, type: 'mention', content: `${reply.author} mentioned you in ${title}` });
    }
    await this.notifications.createOnce(due);
  }

  /** A new private message: its recipient, unless they have opened it already. */
  private async message(messageId: number): Promise<void> {
    const [message]: Array<{
      subject: string;
      sender_id: number | null;
      sender: string | null;
      recipient_id: number | null;
      is_read: boolean;
    }> = await this.dataSource.query(
      `SELECT m.subject, m.sender_id, s.username::text AS sender, m.recipient_id, m.is_read
       FROM private_messages m ${authorJoin('s', 'm.sender_id')} WHERE m.id = $1`,
      [messageId],
    );
    if (!message || message.sender_id === null || message.sender === null) return;
    if (message.recipient_id === null || message.recipient_id === message.sender_id) return;
    // Opened before this job ran: the recipient has seen it, so a notification would only be noise.
    if (message.is_read) return;
    await this.notifications.createOnce([
      {
        userId: message.recipient_id,
        type: 'message',
        content: `${message.sender} sent you a message: ${quoted(message.subject)}`,
        threadId: null,
        actorId: message.sender_id,
        source: notificationSource('message', messageId),
      },
    ]);
  }

  /**
   * The members @mentioned in `markdown` (not in code), not the author: at most MENTIONS_PER_POST_MAX,
   * in order of first mention; names of nobody are skipped.
   */
  private async mentioned(markdown: string, authorId: number): Promise<number[]> {
    const names = await mentionedUsernames(markdown, MENTION_CANDIDATES_MAX);
    if (names.length === 0) return [];
    const rows: Array<{ id: number }> = await this.dataSource.query(
      `SELECT u.id FROM unnest($1::text[]) WITH ORDINALITY AS m (name, position)
       JOIN users u ON u.username = m.name::citext
       WHERE u.id <> $2
       ORDER BY m.position LIMIT $3`,
      [names, authorId, MENTIONS_PER_POST_MAX],
    );
    return rows.map((row) => row.id);
  }
}
