import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  type AuditAction,
  FORUM_LIVE_EVENT,
  FORUM_MESSAGES,
  type PasteLiveEvent,
  type PasteRef,
  type ThreadDetail,
  type ThreadFlags,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { announcePagesChanged, EventsPort, type PagesChanged } from '../../infra/events/events.port.js';
import { type AuditActor, AuditService, excerpt } from '../audit/audit.service.js';
import { authorJoin } from '../users/author-sql.js';
import { UsersService } from '../users/users.service.js';
import { FORUM_STATS_SLOT, ForumService } from './forum.service.js';
import { ViewCounter } from './view-counter.js';

/** A paste's flags an admin toggles, and the audit actions of turning each on and off. */
export type ThreadFlag = 'is_pinned' | 'is_locked' | 'is_featured';
const FLAG_ACTIONS: Record<ThreadFlag, { key: keyof ThreadFlags; on: AuditAction; off: AuditAction }> = {
  is_pinned: { key: 'isPinned', on: 'thread.pin', off: 'thread.unpin' },
  is_locked: { key: 'isLocked', on: 'thread.lock', off: 'thread.unlock' },
  is_featured: { key: 'isFeatured', on: 'thread.feature', off: 'thread.unfeature' },
};
/** How much of a deleted reply's text its audit entry keeps. */
const AUDIT_CONTENT_MAX = 1000;

/**
 * Moderation of pastes and replies (SPEC §6): pin, lock and feature a paste, delete a paste or a reply.
 * Admins only (ForumAdminController); each action and the audit entry that records it in one transaction.
 */
@Injectable()
export class ModerationService {
  private readonly logger = new Logger('Moderation');

  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly views: ViewCounter,
    private readonly users: UsersService,
    private readonly events: EventsPort,
    private readonly forum: ForumService,
  ) {}

  /** Tells every instance which public pages a committed action made stale (their caches drop them). */
  private pagesChanged(
    change: Omit<PagesChanged, 'type'>,
    pasteEvent: PasteLiveEvent,
    listed = true,
  ): Promise<void> {
    return announcePagesChanged(this.events, change, this.logger, pasteEvent, { listed });
  }

  /**
   * The paste `ref` names (alive), as staff read it: a private one of another member is recorded in the
   * audit log ('thread.private_read'), so every read of what its author alone may see is accounted for.
   */
  async readPaste(ref: PasteRef, admin: AuditActor): Promise<ThreadDetail> {
    const { detail, id, authorId } = await this.forum.detail(ref);
    if (detail.visibility === 'private' && authorId !== admin.id) {
      await this.audit.record(this.dataSource.manager, admin, {
        action: 'thread.private_read',
        targetType: 'thread',
        targetId: id,
        targetLabel: detail.title,
        before: null,
        after: { authorId },
      });
    }
    return detail;
  }

  /** Flips one flag of a paste; `actor` (an admin) is recorded in the audit log, in the same transaction. */
  async toggle(threadId: number, flag: ThreadFlag, actor: AuditActor): Promise<ThreadFlags> {
    let listed = true;
    const flags = await this.dataSource.transaction(async (manager) => {
      const [rows] = (await manager.query(
        `UPDATE threads SET ${flag} = NOT ${flag} WHERE id = $1
         RETURNING title, is_pinned, is_locked, is_featured, listed`,
        [threadId],
      )) as [
        Array<{
          title: string;
          is_pinned: boolean;
          is_locked: boolean;
          is_featured: boolean;
          listed: boolean;
        }>,
        number,
      ];
      const row = rows[0];
      if (!row) throw new NotFoundException(FORUM_MESSAGES.threadNotFound);
      listed = row.listed;
      const after: ThreadFlags = {
        isPinned: row.is_pinned,
        isLocked: row.is_locked,
        isFeatured: row.is_featured,
      };
      const { key, on, off } = FLAG_ACTIONS[flag];
      await this.audit.record(manager, actor, {
        action: after[key] ? on : off,
        targetType: 'thread',
        targetId: threadId,
        targetLabel: row.title,
        before: { ...after, [key]: !after[key] },
        after,
      });
      return after;
    });
    // A paste no list shows: its flags reach its readers only, never the lists' watchers.
    await this.pagesChanged(
      { lists: true, threads: [threadId] },
      { type: FORUM_LIVE_EVENT.pasteFlags, threadId, ...flags },
      listed,
    );
    return flags;
  }

  /**
   * Deletes a paste with its replies and votes; the forum's count and the authors' thread and reply
   * counts go down with it. Reputation already earned is kept. `actor` (an admin) is recorded in the
   * audit log, in the same transaction.
   */
  async deleteThread(threadId: number, actor: AuditActor): Promise<void> {
    const listed = await this.dataSource.transaction(async (manager) => {
      const [thread]: Array<{
        listed: boolean;
        author_id: number | null;
        author_name: string | null;
        title: string;
        reply_count: number;
        view_count: number;
        vote_score: number;
      }> = await manager.query(
        `SELECT t.author_id, a.username::text AS author_name, t.title, t.reply_count, t.view_count, t.vote_score,
           t.listed
         FROM threads t ${authorJoin('a', 't.author_id')} WHERE t.id = $1 FOR UPDATE OF t`,
        [threadId],
      );
      if (!thread) throw new NotFoundException(FORUM_MESSAGES.threadNotFound);
      await this.audit.record(manager, actor, {
        action: 'thread.delete',
        targetType: 'thread',
        targetId: threadId,
        targetLabel: thread.title,
        before: {
          title: thread.title,
          authorId: thread.author_id,
          authorName: thread.author_name,
          replyCount: thread.reply_count,
          viewCount: thread.view_count + this.views.pending(threadId),
          voteScore: thread.vote_score,
        },
        after: null,
      });
      await this.lowerReplyCounts(manager, 'SELECT author_id FROM replies WHERE thread_id = $1', [threadId]);
      // Only a listed paste is counted (its author's and the forum's counts).
      if (thread.author_id !== null && thread.listed) {
        await this.users.moveCounts(manager, thread.author_id, { pastes: -1 });
      }
      await manager.query('DELETE FROM threads WHERE id = $1', [threadId]);
      if (thread.listed) {
        await manager.query(
          `UPDATE forum_stats SET thread_count = thread_count - 1 WHERE slot = ${FORUM_STATS_SLOT}`,
        );
      }
      return thread.listed;
    });
    await this.pagesChanged(
      { lists: true, threads: [threadId] },
      { type: FORUM_LIVE_EVENT.pasteDeleted, threadId },
      listed,
    );
  }

  /**
   * Deletes a reply and the replies under it, keeping the paste's and the authors' counters right.
   * `actor` (an admin) is recorded in the audit log, in the same transaction.
   */
  async deleteReply(replyId: number, actor: AuditActor): Promise<void> {
    const { pasteId, replyCount } = await this.dataSource.transaction(async (manager) => {
      const [reply]: Array<{
        thread_id: number;
        thread_title: string;
        author_id: number | null;
        author_name: string | null;
        content: string;
      }> = await manager.query(
        `SELECT r.thread_id, t.title AS thread_title, r.author_id, a.username::text AS author_name, r.content
         FROM replies r JOIN threads t ON t.id = r.thread_id ${authorJoin('a', 'r.author_id')}
         WHERE r.id = $1`,
        [replyId],
      );
      if (!reply) throw new NotFoundException(FORUM_MESSAGES.replyNotFound);
      await manager.query('SELECT id FROM threads WHERE id = $1 FOR UPDATE', [reply.thread_id]);
      await this.audit.record(manager, actor, {
        action: 'reply.delete',
        targetType: 'reply',
        targetId: replyId,
        targetLabel: excerpt(reply.content),
        before: {
          threadId: reply.thread_id,
          threadTitle: reply.thread_title,
          authorId: reply.author_id,
          authorName: reply.author_name,
          content: reply.content.slice(0, AUDIT_CONTENT_MAX),
        },
        after: null,
      });
      const subtree = `WITH RECURSIVE sub AS (
          SELECT id, author_id FROM replies WHERE id = $1
          UNION ALL SELECT r.id, r.author_id FROM replies r JOIN sub ON r.parent_id = sub.id)`;
      const removed = await this.lowerReplyCounts(manager, `${subtree} SELECT author_id FROM sub`, [replyId]);
      await manager.query('DELETE FROM replies WHERE id = $1', [replyId]);
      const [[counted]] = (await manager.query(
        `UPDATE threads t SET reply_count = GREATEST(t.reply_count - $2, 0),
           last_reply_at = last.created_at, last_reply_author_id = last.author_id
         FROM (SELECT NULL) AS nothing
         LEFT JOIN LATERAL (SELECT created_at, author_id FROM replies WHERE thread_id = $1
                            ORDER BY created_at DESC, id DESC LIMIT 1) last ON true
         WHERE t.id = $1 RETURNING t.reply_count`,
        [reply.thread_id, removed],
      )) as [Array<{ reply_count: number }>, number];
      return { pasteId: reply.thread_id, replyCount: counted?.reply_count ?? 0 };
    });
    await this.pagesChanged(
      { lists: true, threads: [pasteId] },
      { type: FORUM_LIVE_EVENT.replyDeleted, threadId: pasteId, replyId, replyCount },
    );
  }

  /** Lowers each author's reply count by their replies among `authorsSql`'s rows; returns how many. */
  private async lowerReplyCounts(
    manager: EntityManager,
    authorsSql: string,
    params: unknown[],
  ): Promise<number> {
    const counts: Array<{ author_id: number | null; n: number }> = await manager.query(
      `SELECT author_id, count(*)::int AS n FROM (${authorsSql}) x GROUP BY author_id`,
      params,
    );
    let total = 0;
    for (const { author_id: authorId, n } of counts) {
      total += n;
      if (authorId === null) continue;
      await this.users.moveCounts(manager, authorId, { replies: -n });
    }
    return total;
  }
}
