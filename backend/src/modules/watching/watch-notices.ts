import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { NoticeAudience, NoticePost } from '../notifications/notice-registry.js';
import { notificationSource } from '../notifications/notifications.queue.js';
import type { NewNotification } from '../notifications/notifications.service.js';

/** PostgreSQL's foreign_key_violation: the paste or the member went away meanwhile. */
const FOREIGN_KEY_VIOLATION = '23503';

const quoted = (text: string) => `"${text}"`;

/**
 * Who else hears of a new paste or reply: a reply's paste's watchers ('watch'), a new listed paste's
 * author's followers ('follow') and its tags' watchers ('tag'). They share the builder's source, so a
 * member it already told is not told twice. The author starts watching what they post or reply to.
 */
@Injectable()
export class WatchNotices implements NoticeAudience {
  constructor(private readonly dataSource: DataSource) {}

  async build(post: NoticePost, actorId: number): Promise<NewNotification[]> {
    await this.autoWatch(actorId, post.threadId);
    if (!post.open) return [];
    return post.replyId === undefined
      ? this.pasteAudience(post, actorId)
      : this.replyAudience(post, post.replyId, actorId);
  }

  private async replyAudience(
    post: NoticePost,
    replyId: number,
    actorId: number,
  ): Promise<NewNotification[]> {
    const rows: Array<{ userId: number }> = await this.dataSource.query(
      `SELECT user_id AS "userId" FROM paste_watches
       WHERE thread_id = $1 AND watching AND user_id <> $2 ORDER BY user_id`,
      [post.threadId, actorId],
    );
    const source = notificationSource('reply', replyId);
    return rows.map(({ userId }) => ({
      userId,
      type: 'watch' as const,
      content: `${post.author} replied in ${quoted(post.title)}`,
      threadId: post.threadId,
      actorId,
      source,
    }));
  }

  /** Followers first, then the tags' watchers who do not follow: one notice each. */
  private async pasteAudience(post: NoticePost, actorId: number): Promise<NewNotification[]> {
    if (!post.listed) return [];
    const rows: Array<{ userId: number; follows: boolean }> = await this.dataSource.query(
      `SELECT user_id AS "userId", bool_or(follows) AS follows FROM (
         SELECT user_id, true AS follows FROM member_follows WHERE member_id = $1
         UNION ALL
         SELECT user_id, false FROM tag_watches WHERE tag_id = ANY ($2::int[])
       ) audience WHERE user_id <> $1 GROUP BY user_id ORDER BY bool_or(follows) DESC, user_id`,
      [actorId, post.tagIds],
    );
    const source = notificationSource('thread', post.threadId);
    return rows.map(({ userId, follows }) => ({
      userId,
      type: follows ? ('follow' as const) : ('tag' as const),
      content: follows
        ? `${post.author} posted ${quoted(post.title)}`
        : `${post.author} posted ${quoted(post.title)} in a tag you watch`,
      threadId: post.threadId,
      actorId,
      source,
    }));
  }

  /** The author watches what they post and reply to, unless turned off, or they stopped watching it. */
  private async autoWatch(userId: number, threadId: number): Promise<void> {
    try {
      await this.dataSource.query(
        `INSERT INTO paste_watches (user_id, thread_id, watching)
         SELECT $1, $2, true
         WHERE COALESCE((SELECT auto_watch FROM watch_settings WHERE user_id = $1), true)
         ON CONFLICT (user_id, thread_id) DO NOTHING`,
        [userId, threadId],
      );
    } catch (error) {
      if ((error as { code?: unknown }).code !== FOREIGN_KEY_VIOLATION) throw error;
    }
  }
}
