import { Injectable } from '@nestjs/common';
import type { PasteRef } from '@termpaste/contracts';
import type { NOTIFICATION_JOBS } from './notifications.queue.js';
import type { NewNotification } from './notifications.service.js';

/** The notifications a new post or message is due, and who made it. */
export interface NoticeBatch {
  actorId: number;
  due: NewNotification[];
  /** The new paste or reply, for the audiences (watchers, followers): none for a message. */
  post?: NoticePost;
}

/** A new paste or reply, as its builder read it: what the audiences need to choose whom to tell. */
export interface NoticePost {
  threadId: number;
  /** The reply's id; undefined for a new paste. */
  replyId?: number;
  title: string;
  /** The author's username. */
  author: string;
  /** Members other than its author may open the paste by its link, and the reply is not hidden. */
  open: boolean;
  /** Anyone may find it in lists: public, not hidden, not burning after reading. */
  listed: boolean;
  /** The paste's tags (their ids). */
  tagIds: number[];
}

/**
 * More members to tell of a new paste or reply (the watchers of the paste, the author's followers, the
 * tag's watchers), after its builder's (a member due both keeps the builder's: one notice per source).
 */
export interface NoticeAudience {
  build(post: NoticePost, actorId: number): Promise<NewNotification[]>;
}

/** What the notifications module lends a builder. */
export interface NoticeContext {
  /** The members @mentioned in `markdown` (not its author), at most MENTIONS_PER_POST_MAX. */
  mentioned(markdown: string, authorId: number): Promise<number[]>;
}

/** Builds the notifications of one job kind from its source, which the builder's module owns. */
export interface NoticeBuilder {
  /** The job data's key that holds the source's id. */
  readonly idKey: string;
  /** Nothing (undefined) when there is nobody to tell: the source is gone, or nobody else may read it. */
  build(id: number, context: NoticeContext): Promise<NoticeBatch | undefined>;
}

/** How the notifications list joins the paste a notification is about (SQL of the threads module). */
export interface NoticePasteSql {
  /** Joins the paste `column` names as `alias` only when `viewer` may read it (else its columns are NULL). */
  readableJoin(alias: string, column: string, viewer: string): string;
  /** The columns of the paste joined as `alias` that `ref` reads. */
  refColumns(alias: string): string;
  /** Whether the paste `column` names is gone for every reader, as an SQL boolean. */
  gone(column: string): string;
  /** The ref of paste `id`, from its refColumns in `row`. */
  ref(id: number, row: object): PasteRef;
}

/**
 * Where the modules whose posts notify (threads, messages: above notifications) register, when they
 * start, how to read their sources, so notifications imports none of them.
 */
@Injectable()
export class NoticeRegistry {
  private readonly builders = new Map<string, NoticeBuilder>();
  private pastes: NoticePasteSql | undefined;
  private readonly audienceList: NoticeAudience[] = [];

  registerBuilder(
    job: (typeof NOTIFICATION_JOBS)[keyof typeof NOTIFICATION_JOBS],
    builder: NoticeBuilder,
  ): void {
    this.builders.set(job, builder);
  }

  registerAudience(audience: NoticeAudience): void {
    this.audienceList.push(audience);
  }

  /** Who else a new paste or reply notifies (registered by the watching module). */
  audiences(): readonly NoticeAudience[] {
    return this.audienceList;
  }

  registerPasteSql(sql: NoticePasteSql): void {
    this.pastes = sql;
  }

  /** The builder of job `name`; none for a job nobody registered. */
  builder(name: string): NoticeBuilder | undefined {
    return this.builders.get(name);
  }

  pasteSql(): NoticePasteSql {
    if (!this.pastes)
      throw new Error('No paste SQL registered for notifications (the threads module registers it)');
    return this.pastes;
  }
}
