import { Injectable } from '@nestjs/common';
import type { Visibility } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type {
  NoticeBatch,
  NoticeBuilder,
  NoticeContext,
  NoticePasteSql,
} from '../notifications/notice-registry.js';
import {
  notificationSource,
  type ReplyJobData,
  type PasteJobData,
} from '../notifications/notifications.queue.js';
import type { NewNotification } from '../notifications/notifications.service.js';
import { authorJoin } from '../users/author-sql.js';
import { pasteGone, readablePasteJoin } from './post-sql.js';
import { aliveSql, REF_COLUMNS, refOf, type RefRow } from './visibility.js';

/** A new paste, as its notification job reads it. */
export interface PasteNotice {
  title: string;
  content: string;
  authorId: number | null;
  /** The author's username; null once their account is gone. */
  author: string | null;
  visibility: Visibility;
  /** Anyone may find it in lists (threads.listed) right now. */
  listed: boolean;
  /** Hidden pending review: only its author reads it. */
  hidden: boolean;
  tagIds: number[];
}

/** A new reply, as its notification job reads it: with its paste and the reply it answers. */
export interface ReplyNotice {
  content: string;
  authorId: number | null;
  author: string | null;
  threadId: number;
  title: string;
  threadAuthorId: number | null;
  parentAuthorId: number | null;
  visibility: Visibility;
  /** The paste or the reply is hidden pending review, or the paste expired. */
  hidden: boolean;
}

/** Quoted for a notification's text. */
const quoted = (text: string) => `"${text}"`;

/**
 * The notifications of a new paste or reply, for the notifications module's jobs (registered with its
 * NoticeRegistry by PostNoticesModule): reads them from the threads module's tables.
 */
@Injectable()
export class PostNotices {
  constructor(private readonly dataSource: DataSource) {}

  /** A new paste: its @mentions. */
  readonly pasteBuilder: NoticeBuilder = {
    idKey: 'threadId' satisfies keyof PasteJobData,
    build: (threadId, context) => this.pasteBatch(threadId, context, true),
  };

  /** A new paste that mentions nobody: no notice of its own, only the registered audiences'. */
  readonly quietPasteBuilder: NoticeBuilder = {
    idKey: 'threadId' satisfies keyof PasteJobData,
    build: (threadId, context) => this.pasteBatch(threadId, context, false),
  };

  private async pasteBatch(
    threadId: number,
    context: NoticeContext,
    mentions: boolean,
  ): Promise<NoticeBatch | undefined> {
    const paste = await this.paste(threadId);
    if (!paste || paste.authorId === null || paste.author === null) return undefined;
    // Nobody but its author may read a private paste: nobody is told of it.
    if (paste.visibility === 'private') return undefined;
    const authorId = paste.authorId;
    const source = notificationSource('thread', threadId);
    const mentioned = mentions ? await context.mentioned(paste.content, authorId) : [];
    return {
      actorId: authorId,
      post: {
        threadId,
        title: paste.title,
        author: paste.author,
        open: !paste.hidden,
        listed: paste.listed,
        tagIds: paste.tagIds,
      },
      due: mentioned.map((userId) => ({
        userId,
        type: 'mention' as const,
        content: `${paste.author} mentioned you in ${quoted(paste.title)}`,
        threadId,
        actorId: authorId,
        source,
      })),
    };
  }

  /**
   * A new reply: 'reply' to the author of the reply it answers and to the paste's author, then 'mention'
   * to the members it @mentions. One per member: a member due both gets the first (the more specific).
   */
  readonly replyBuilder: NoticeBuilder = {
    idKey: 'replyId' satisfies keyof ReplyJobData,
    build: async (replyId, context) => {
      const reply = await this.reply(replyId);
      if (!reply || reply.authorId === null || reply.author === null) return undefined;
      // Only its author replies on a private paste, and nobody else may read it: nobody to tell.
      if (reply.visibility === 'private') return undefined;
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
      for (const userId of await context.mentioned(reply.content, actorId)) {
        due.push({ ...base, userId, type: 'mention', content: `${reply.author} mentioned you in ${title}` });
      }
      const post = {
        threadId: reply.threadId,
        replyId,
        title: reply.title,
        author: reply.author,
        open: !reply.hidden,
        listed: false,
        tagIds: [],
      };
      return { actorId, due, post };
    },
  };

  /** How the notifications list joins a notification's paste, as far as its member may read it. */
  readonly pasteSql: NoticePasteSql = {
    readableJoin: readablePasteJoin,
    refColumns: REF_COLUMNS,
    gone: pasteGone,
    ref: (id, row) => refOf(id, row as RefRow),
  };
  /** The paste, or undefined when it was deleted before its job ran. */
  async paste(threadId: number): Promise<PasteNotice | undefined> {
    const [row]: PasteNotice[] = await this.dataSource.query(
      `SELECT t.title, t.content, t.author_id AS "authorId", a.username::text AS author, t.visibility,
         t.listed AND ${aliveSql('t')} AS listed, NOT (${aliveSql('t')}) OR t.hidden_at IS NOT NULL AS hidden,
         ARRAY(SELECT pt.tag_id FROM paste_tags pt WHERE pt.thread_id = t.id) AS "tagIds"
       FROM threads t ${authorJoin('a', 't.author_id')} WHERE t.id = $1 AND t.deleted_at IS NULL`,
      [threadId],
    );
    return row;
  }

  /** The reply, or undefined when it was deleted before its job ran. */
  async reply(replyId: number): Promise<ReplyNotice | undefined> {
    const [row]: ReplyNotice[] = await this.dataSource.query(
      `SELECT r.content, r.author_id AS "authorId", a.username::text AS author, r.thread_id AS "threadId",
         t.title, t.author_id AS "threadAuthorId", p.author_id AS "parentAuthorId", t.visibility,
         NOT (${aliveSql('t')}) OR t.hidden_at IS NOT NULL OR r.hidden_at IS NOT NULL AS hidden
       FROM replies r JOIN threads t ON t.id = r.thread_id
       ${authorJoin('a', 'r.author_id')}
       LEFT JOIN replies p ON p.id = r.parent_id
       WHERE r.id = $1 AND r.deleted_at IS NULL AND t.deleted_at IS NULL`,
      [replyId],
    );
    return row;
  }
}
