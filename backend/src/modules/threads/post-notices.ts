import { Injectable, Module } from '@nestjs/common';
import type { Visibility } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { authorJoin } from '../users/author-sql.js';

/** A new paste, as its notification job reads it. */
export interface PasteNotice {
  title: string;
  content: string;
  authorId: number | null;
  /** The author's username; null once their account is gone. */
  author: string | null;
  visibility: Visibility;
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
}

/**
 * What the notifications module's jobs read of a new paste or reply (the threads module's tables). On its
 * own, with no dependencies, so the notifications module can import it while the forum module imports
 * the notifications module.
 */
@Injectable()
export class PostNotices {
  constructor(private readonly dataSource: DataSource) {}

  /** The paste, or undefined when it was deleted before its job ran. */
  async paste(threadId: number): Promise<PasteNotice | undefined> {
    const [row]: PasteNotice[] = await this.dataSource.query(
      `SELECT t.title, t.content, t.author_id AS "authorId", a.username::text AS author, t.visibility
       FROM threads t ${authorJoin('a', 't.author_id')} WHERE t.id = $1 AND t.deleted_at IS NULL`,
      [threadId],
    );
    return row;
  }

  /** The reply, or undefined when it was deleted before its job ran. */
  async reply(replyId: number): Promise<ReplyNotice | undefined> {
    const [row]: ReplyNotice[] = await this.dataSource.query(
      `SELECT r.content, r.author_id AS "authorId", a.username::text AS author, r.thread_id AS "threadId",
         t.title, t.author_id AS "threadAuthorId", p.author_id AS "parentAuthorId", t.visibility
       FROM replies r JOIN threads t ON t.id = r.thread_id
       ${authorJoin('a', 'r.author_id')}
       LEFT JOIN replies p ON p.id = r.parent_id
       WHERE r.id = $1 AND r.deleted_at IS NULL AND t.deleted_at IS NULL`,
      [replyId],
    );
    return row;
  }
}

@Module({ providers: [PostNotices], exports: [PostNotices] })
export class PostNoticesModule {}
