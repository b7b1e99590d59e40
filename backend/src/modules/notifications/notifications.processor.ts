import { Injectable } from '@nestjs/common';
import { MENTIONS_PER_POST_MAX } from '@termpaste/contracts';
import { type QueueJob, QueueProcessor } from '../../infra/queue/queue.port.js';
import { mentionedUsernames } from '../auth/mentions.js';
import {
  type MessageJobData,
  NOTICES_JOB,
  type NoticesJobData,
  NOTIFICATION_JOBS,
  NOTIFICATIONS_QUEUE,
  notificationSource,
  type ReplyJobData,
  type ThreadJobData,
} from './notifications.queue.js';
import { type NewNotification, NotificationsService } from './notifications.service.js';
import { DataSource } from 'typeorm';
import { MessageNotices } from '../messages/message-notices.js';
import { PeopleService } from '../screening/people.service.js';
import { PostNotices } from '../threads/post-notices.js';
import { UsersService } from '../users/users.service.js';

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

/** A notices job's notices, each checked for its shape. */
function noticesOf(data: unknown): NoticesJobData['notices'] {
  const notices = (data as Partial<NoticesJobData> | null)?.notices;
  if (!Array.isArray(notices)) throw new Error('Notices job data needs its notices');
  for (const notice of notices) {
    positiveId(notice, 'userId');
    if (typeof notice.content !== 'string' || typeof notice.source !== 'string') {
      throw new Error('Each notice needs its content and source');
    }
    if (notice.threadId !== null) positiveId(notice, 'threadId');
  }
  return notices;
}

/** Quoted for a notification's text. */
const quoted = (text: string) => `"${text}"`;

/**
 * The notification fan-out (queue `notifications`): reads the job's source row, derives who to tell and
 * creates the notifications once per member and source (NotificationsService.createOnce), so running a job
 * twice creates nothing new. A source deleted before the job runs: nothing to do. Nobody is notified of
 * their own post, nor of a post whose author's account is gone, nor of one by a member they blocked
 * (unless that member is staff).
 */
@Injectable()
@QueueProcessor(NOTIFICATIONS_QUEUE)
export class NotificationsProcessor implements QueueProcessor {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly posts: PostNotices,
    private readonly messages: MessageNotices,
    private readonly users: UsersService,
    private readonly people: PeopleService,
    private readonly dataSource: DataSource,
  ) {}

  async process(job: QueueJob): Promise<void> {
    switch (job.name) {
      case NOTIFICATION_JOBS.thread:
        return this.thread(positiveId(job.data, 'threadId' satisfies keyof ThreadJobData));
      case NOTIFICATION_JOBS.reply:
        return this.reply(positiveId(job.data, 'replyId' satisfies keyof ReplyJobData));
      case NOTIFICATION_JOBS.message:
        return this.message(positiveId(job.data, 'messageId' satisfies keyof MessageJobData));
      case NOTICES_JOB:
        await this.notifications.createOnce(noticesOf(job.data));
        return;
      default:
        throw new Error(`Unknown job "${job.name}" on the notifications queue`);
    }
  }

  /** A new paste: its @mentions. */
  private async thread(threadId: number): Promise<void> {
    const thread = await this.posts.paste(threadId);
    if (!thread || thread.authorId === null || thread.author === null) return;
    // Nobody but its author may read a private paste: nobody is told of it.
    if (thread.visibility === 'private') return;
    const authorId = thread.authorId;
    const source = notificationSource('thread', threadId);
    const mentioned = await this.mentioned(thread.content, authorId);
    await this.create(
      authorId,
      mentioned.map((userId) => ({
        userId,
        type: 'mention',
        content: `${thread.author} mentioned you in ${quoted(thread.title)}`,
        threadId,
        actorId: authorId,
        source,
      })),
    );
  }

  /**
   * A new reply: 'reply' to the author of the reply it answers and to the paste's author, then 'mention'
   * to the members it @mentions. One per member: a member due both gets the first (the more specific).
   */
  private async reply(replyId: number): Promise<void> {
    const reply = await this.posts.reply(replyId);
    if (!reply || reply.authorId === null || reply.author === null) return;
    // Only its author replies on a private paste, and nobody else may read it: nobody to tell.
    if (reply.visibility === 'private') return;
    const actorId = reply.authorId;
    const base = { threadId: reply.threadId, actorId, source: notificationSource('reply', replyId) };
    const title = quoted(reply.title);
    const due: NewNotification[] = [];
    if (reply.parentAuthorId !== null && reply.parentAuthorId !== actorId) {
      due.push({
        ...base,
        userId: reply.parentAuthorId,
        type: 'reply',
        content: `${reply.author} replied to your reply in ${title}`,
      });
    }
    if (reply.threadAuthorId !== null && reply.threadAuthorId !== actorId) {
      due.push({
        ...base,
        userId: reply.threadAuthorId,
        type: 'reply',
        content: `${reply.author} replied to your paste ${title}`,
      });
    }
    for (const userId of await this.mentioned(reply.content, actorId)) {
      due.push({ ...base, userId, type: 'mention', content: `${reply.author} mentioned you in ${title}` });
    }
    await this.create(actorId, due);
  }

  /** A new private message: its recipient, unless they have opened it already. */
  private async message(messageId: number): Promise<void> {
    const message = await this.messages.message(messageId);
    if (!message || message.senderId === null || message.sender === null) return;
    if (message.recipientId === null || message.recipientId === message.senderId) return;
    // Opened before this job ran: the recipient has seen it, so a notification would only be noise.
    if (message.isRead) return;
    await this.create(message.senderId, [
      {
        userId: message.recipientId,
        type: 'message',
        content: `${message.sender} sent you a message: ${quoted(message.subject)}`,
        threadId: null,
        actorId: message.senderId,
        source: notificationSource('message', messageId),
      },
    ]);
  }

  /**
   * Creates the notifications `due` of a post or message by member `actorId`, but for the members who
   * blocked them: those never hear of it. Staff are never blocked.
   */
  private async create(actorId: number, due: NewNotification[]): Promise<void> {
    if (due.length === 0) return;
    const actor = await this.users.findById(actorId);
    if (!actor) return;
    if (!actor.isAdmin && !actor.isOwner) {
      const blockers = await this.people.blockersAmong(
        this.dataSource,
        actorId,
        due.map((notification) => notification.userId),
      );
      due = due.filter((notification) => !blockers.has(notification.userId));
    }
    await this.notifications.createOnce(due);
  }

  /**
   * The members @mentioned in `markdown` (not in code), not the author: at most MENTIONS_PER_POST_MAX,
   * in order of first mention; names of nobody are skipped.
   */
  private async mentioned(markdown: string, authorId: number): Promise<number[]> {
    const names = await mentionedUsernames(markdown, MENTION_CANDIDATES_MAX);
    if (names.length === 0) return [];
    return this.users.idsByUsernames(names, { except: authorId, limit: MENTIONS_PER_POST_MAX });
  }
}
