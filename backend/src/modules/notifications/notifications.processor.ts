import { Injectable } from '@nestjs/common';
import { MENTIONS_PER_POST_MAX } from '@termpaste/contracts';
import { type QueueJob, QueueProcessor } from '../../infra/queue/queue.port.js';
import { mentionedUsernames } from '../auth/mentions.js';
import { type NoticeContext, NoticeRegistry } from './notice-registry.js';
import { NOTICES_JOB, type NoticesJobData, NOTIFICATIONS_QUEUE } from './notifications.queue.js';
import { type NewNotification, NotificationsService } from './notifications.service.js';
import { DataSource } from 'typeorm';
import { PeopleService } from '../screening/people.service.js';
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

/**
 * The notification fan-out: the builder the source's module registered (NoticeRegistry) says who to tell;
 * each is created once per member and source, so a job run twice creates nothing new. Nobody hears of
 * their own post, a deleted account's, or one by a member they blocked (unless staff).
 */
@Injectable()
@QueueProcessor(NOTIFICATIONS_QUEUE)
export class NotificationsProcessor implements QueueProcessor {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly registry: NoticeRegistry,
    private readonly users: UsersService,
    private readonly people: PeopleService,
    private readonly dataSource: DataSource,
  ) {}

  async process(job: QueueJob): Promise<void> {
    if (job.name === NOTICES_JOB) {
      await this.notifications.createOnce(noticesOf(job.data));
      return;
    }
    // A new paste, reply or message: its module (registered) says who is due what.
    const builder = this.registry.builder(job.name);
    if (!builder) throw new Error(`Unknown job "${job.name}" on the notifications queue`);
    const batch = await builder.build(positiveId(job.data, builder.idKey), this.context);
    if (!batch) return;
    const due = [...batch.due];
    if (batch.post) {
      for (const audience of this.registry.audiences()) {
        due.push(...(await audience.build(batch.post, batch.actorId)));
      }
    }
    await this.create(batch.actorId, due);
  }

  private readonly context: NoticeContext = {
    mentioned: (markdown, authorId) => this.mentioned(markdown, authorId),
  };

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
