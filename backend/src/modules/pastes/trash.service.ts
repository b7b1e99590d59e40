import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import {
  PASTE_LIVE_EVENT,
  POST_MESSAGES,
  OWN_POSTS_MESSAGES,
  type PasteLiveEvent,
  rankChanges,
  TRASH_PAGE_SIZE,
  type TrashPage,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { INVALID_CURSOR } from '../../common/keyset-cursor.js';
import { announcePagesChanged, EventsPort, type PagesChanged } from '../../infra/events/events.port.js';
import { type AuditActor, AuditService, excerpt } from '../audit/audit.service.js';
import { ReputationService } from '../ranks/reputation.service.js';
import { authorJoin, authorJson } from '../users/author-sql.js';
import { UsersService } from '../users/users.service.js';
import { PASTE_STATS_SLOT } from './pastes.service.js';
import { IN_TRASH } from './trash.queue.js';
import { ViewCounter } from './view-counter.js';
import { aliveSql, REF_COLUMNS, resolvePaste } from './visibility.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Paste } from './entities/paste.entity.js';
import type { Reply } from './entities/reply.entity.js';
import { toTrashEntry, type TrashRow } from './paste-rows.js';
import { takeLock } from '../../infra/database/lock-order.js';

/** How much of a deleted reply's text its audit entry keeps. */
const AUDIT_CONTENT_MAX = 1000;
/** How much of a post's text a trash entry shows. */
const EXCERPT_MAX = 160;

/** What a delete or restore changed, for the announcement after commit. */
interface Moved {
  threadId: number;
  /** The paste is (or was) in the lists: home, search, profiles, the live lists. */
  listed: boolean;
  /** Someone's reputation crossed a rank: their name shows on every page. */
  rankMoved: boolean;
  /** The members whose counts moved: their profiles are stale. */
  profiles: number[];
  /** The paste it was forked from: its page counts its forks. */
  forkedFrom?: number | null;
  replyId?: number;
  replyCount?: number;
  alone?: boolean;
}

/** A paste as its delete reads it: its audit entry and the counts it moves. */
const TRASHED_PROPERTIES = [
  'authorId',
  'title',
  'replyCount',
  'viewCount',
  'voteScore',
  'listed',
  'forkedFromId',
] as const;
const TRASHED_SELECT = selectColumns(Paste, 't', TRASHED_PROPERTIES);
type TrashedRow = Row<Paste, (typeof TRASHED_PROPERTIES)[number]>;

/** A paste as its restore reads it back. */
const RESTORED_PROPERTIES = ['authorId', 'title', 'listed', 'forkedFromId'] as const;
const RESTORED_SELECT = selectColumns(Paste, 't', RESTORED_PROPERTIES);
type RestoredRow = Row<Paste, (typeof RESTORED_PROPERTIES)[number]>;

/** A live reply locked for its delete, with whether its paste is listed. */
type LiveReply = Row<Reply, 'pasteId' | 'authorId' | 'content'> & Row<Paste, 'listed'>;

/** The trash's cursor: the last entry's deletion time (microseconds), kind and id, in base64url. */
function encodeTrashCursor(row: TrashRow): string {
  return Buffer.from(`${row.deletedMicros}:${row.kind}:${row.id}`).toString('base64url');
}

function decodeTrashCursor(cursor: string): { micros: string; kind: 'paste' | 'reply'; id: number } {
  const match = /^(\d{1,16}):(paste|reply):(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match || Number(match[3]) > 2_147_483_647) throw new BadRequestException(INVALID_CURSOR);
  return { micros: match[1]!, kind: match[2] as 'paste' | 'reply', id: Number(match[3]) };
}

/**
 * Deleting posts and the trash: a deleted post keeps its row TRASH_DAYS days, unreachable, restorable by
 * staff. A delete or restore moves counters, earned reputation and staff's audit entry in one
 * transaction. Lock order, as votes and new replies take them: paste, its replies, members (by id).
 */
@Injectable()
export class TrashService {
  private readonly logger = new Logger('Trash');

  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly views: ViewCounter,
    private readonly users: UsersService,
    private readonly events: EventsPort,
    private readonly reputation: ReputationService,
  ) {}

  /**
   * The member's `DELETE /api/threads/{id}`: the paste `raw` names (a number or a key) if `user` may
   * read it (else 404 as for none), and only their own (else 403).
   */
  async deleteOwnPaste(raw: string, user: AuditActor & { id: number }): Promise<void> {
    const moved = await this.dataSource.transaction(async (manager) => {
      const paste = await resolvePaste(manager, raw, user.id, { lock: true });
      if (paste.authorId !== user.id) throw new ForbiddenException(OWN_POSTS_MESSAGES.notYourPaste);
      return this.trashPaste(manager, paste.id, user, false);
    });
    await this.announce(moved, { type: PASTE_LIVE_EVENT.pasteDeleted, threadId: moved.threadId });
  }

  /**
   * Deletes paste `threadId` (by its number, whatever its visibility) to the trash: staff's delete
   * (`audited`: recorded in the audit log as `thread.delete`, in the same transaction) and the deletion
   * of a member's posts with their account. 404 when it is not alive (missing, deleted, expired).
   */
  async deletePaste(threadId: number, actor: AuditActor, { audited = false } = {}): Promise<void> {
    const moved = await this.dataSource.transaction((manager) =>
      this.trashPaste(manager, threadId, actor, audited),
    );
    await this.announce(moved, { type: PASTE_LIVE_EVENT.pasteDeleted, threadId });
  }

  /**
   * Staff's delete of paste `post.paste` or reply `post.reply` (with the live replies under it) in
   * `manager`'s transaction (a review decision), audited as `thread.delete` / `reply.delete`; answers
   * the announcement to make once the transaction has committed. 404 when it is not alive.
   */
  async deleteInTransaction(
    manager: EntityManager,
    post: { paste: number } | { reply: number },
    actor: AuditActor,
  ): Promise<() => Promise<void>> {
    if ('paste' in post) {
      const moved = await this.trashPaste(manager, post.paste, actor, true);
      return () => this.announce(moved, { type: PASTE_LIVE_EVENT.pasteDeleted, threadId: post.paste });
    }
    const reply = await this.lockLiveReply(manager, post.reply, null, { anyVisibility: true });
    const moved = await this.trashReplies(manager, reply, post.reply, actor, {
      withReplies: true,
      audited: true,
    });
    return () => this.announceReply(moved);
  }

  /** The member's `DELETE /api/replies/{id}`: their own reply only (403), by itself. */
  async deleteOwnReply(replyId: number, user: AuditActor & { id: number }): Promise<void> {
    const moved = await this.dataSource.transaction(async (manager) => {
      const reply = await this.lockLiveReply(manager, replyId, user.id);
      if (reply.authorId !== user.id) throw new ForbiddenException(OWN_POSTS_MESSAGES.notYourReply);
      return this.trashReplies(manager, reply, replyId, user, { withReplies: false, audited: false });
    });
    await this.announceReply(moved);
  }

  /**
   * Deletes reply `replyId` and every live reply under it to the trash (staff's delete; `audited`: the
   * audit entry `reply.delete`, in the same transaction). 404 when it or its paste is not alive.
   */
  async deleteReply(replyId: number, actor: AuditActor, { audited = false } = {}): Promise<void> {
    const moved = await this.dataSource.transaction(async (manager) => {
      const reply = await this.lockLiveReply(manager, replyId, null, { anyVisibility: true });
      return this.trashReplies(manager, reply, replyId, actor, { withReplies: true, audited });
    });
    await this.announceReply(moved);
  }

  /**
   * Moves every live post of `userId` to the trash in one transaction (their account's deletion with its
   * posts), as their own deletes would; `actor` is recorded. Restorable while the account exists.
   */
  async deletePostsOf(userId: number, actor: AuditActor): Promise<{ pastes: number; replies: number }> {
    const counts = await this.dataSource.transaction(async (manager) => {
      await this.lockPostsOf(manager, userId);
      const pastes: Array<Row<Paste, 'id'>> = await manager.query(
        `SELECT t.id FROM threads t WHERE t.author_id = $1 AND ${aliveSql('t')} ORDER BY t.id`,
        [userId],
      );
      for (const { id } of pastes) await this.trashPaste(manager, id, actor, false);
      const replies: Array<Row<Reply, 'id'>> = await manager.query(
        `SELECT r.id FROM replies r JOIN threads t ON t.id = r.thread_id
         WHERE r.author_id = $1 AND r.deleted_at IS NULL AND ${aliveSql('t')} ORDER BY r.thread_id, r.id`,
        [userId],
      );
      for (const { id } of replies) {
        const reply = await this.lockLiveReply(manager, id, null, { anyVisibility: true });
        await this.trashReplies(manager, reply, id, actor, { withReplies: false, audited: false });
      }
      return { pastes: pastes.length, replies: replies.length };
    });
    await announcePagesChanged(this.events, { all: true }, this.logger);
    return counts;
  }

  /**
   * Restores paste `threadId` from the trash (404 when it is not there: never deleted, or purged), its
   * counts and the reputation it earned with it; `admin` is recorded in the audit log (`thread.restore`).
   */
  async restorePaste(threadId: number, admin: AuditActor): Promise<void> {
    const moved = await this.dataSource.transaction(async (manager) => {
      const [[paste]] = (await manager.query(
        `UPDATE threads t SET deleted_at = NULL, deleted_by = NULL
         FROM threads old WHERE old.id = t.id AND t.id = $1 AND ${IN_TRASH('t.deleted_at')}
         RETURNING ${RESTORED_SELECT}, old.deleted_at AS "deletedAt", old.deleted_by AS "deletedBy"`,
        [threadId],
      )) as [Array<RestoredRow & { deletedAt: Date; deletedBy: number | null }>, number];
      if (!paste) throw new NotFoundException(OWN_POSTS_MESSAGES.notInTrash);
      await this.audit.record(manager, admin, {
        action: 'thread.restore',
        targetType: 'thread',
        targetId: threadId,
        targetLabel: paste.title,
        before: { deletedAt: paste.deletedAt.toISOString(), deletedBy: paste.deletedBy },
        after: null,
      });
      const { rankMoved, profiles } = await this.movePasteCounts(manager, threadId, paste, +1);
      return { threadId, listed: paste.listed, rankMoved, profiles, forkedFrom: paste.forkedFromId };
    });
    await this.announce(moved);
  }

  /**
   * Restores reply `replyId` from the trash with the replies its deletion took under it (404 when it is
   * not there, or its paste is not alive); `admin` is recorded in the audit log (`reply.restore`).
   */
  async restoreReply(replyId: number, admin: AuditActor): Promise<void> {
    const moved = await this.dataSource.transaction(async (manager) => {
      const [found]: Array<Row<Reply, 'pasteId'>> = await manager.query(
        `SELECT r.thread_id AS "pasteId" FROM replies r JOIN threads t ON t.id = r.thread_id
         WHERE r.id = $1 AND ${IN_TRASH('r.deleted_at')} AND ${aliveSql('t')}`,
        [replyId],
      );
      if (!found) throw new NotFoundException(OWN_POSTS_MESSAGES.notInTrash);
      takeLock(manager, 'paste', [found.pasteId]);
      const [paste]: Array<Row<Paste, 'listed'>> = await manager.query(
        'SELECT listed FROM threads WHERE id = $1 FOR UPDATE',
        [found.pasteId],
      );
      takeLock(manager, 'reply', [replyId]);
      // The reply, and under it those the same deletion took (same instant, same hand).
      const [top]: Array<
        Row<Reply, 'deletedBy' | 'content'> & {
          deletedAt: Date;
          replies: Array<Row<Reply, 'id' | 'authorId'>> | null;
        }
      > = await manager.query(
        `WITH RECURSIVE root AS (
           SELECT id, deleted_at, deleted_by, content FROM replies
           WHERE id = $1 AND ${IN_TRASH('deleted_at')} FOR UPDATE
         ), sub AS (
           SELECT id FROM root
           UNION ALL SELECT r.id FROM replies r JOIN sub ON r.parent_id = sub.id
         ), taken AS (
           SELECT r.id FROM replies r JOIN sub ON sub.id = r.id, root
           WHERE r.deleted_at = root.deleted_at AND r.deleted_by IS NOT DISTINCT FROM root.deleted_by
         ), restored AS (
           UPDATE replies r SET deleted_at = NULL, deleted_by = NULL FROM taken WHERE r.id = taken.id
           RETURNING r.id, r.author_id
         )
         SELECT root.deleted_at AS "deletedAt", root.deleted_by AS "deletedBy", root.content,
           (SELECT json_agg(json_build_object('id', id, 'authorId', author_id)) FROM restored) AS replies
         FROM root`,
        [replyId],
      );
      if (!top) throw new NotFoundException(OWN_POSTS_MESSAGES.notInTrash);
      await this.audit.record(manager, admin, {
        action: 'reply.restore',
        targetType: 'reply',
        targetId: replyId,
        targetLabel: excerpt(top.content),
        before: {
          threadId: found.pasteId,
          deletedAt: top.deletedAt.toISOString(),
          deletedBy: top.deletedBy,
          replies: top.replies?.length ?? 0,
        },
        after: null,
      });
      const replies = top.replies ?? [];
      const { rankMoved, profiles, replyCount } = await this.moveReplyCounts(
        manager,
        found.pasteId,
        replies,
        +1,
      );
      return { threadId: found.pasteId, listed: paste!.listed, rankMoved, profiles, replyCount };
    });
    await this.announce(moved);
  }

  /**
   * The trash: pastes and replies deleted in the last TRASH_DAYS days (a reply only while its paste is
   * alive: restoring the paste brings it back here), newest deletion first, keyset-paged.
   */
  async trash(cursor?: string): Promise<TrashPage> {
    const after = cursor ? decodeTrashCursor(cursor) : undefined;
    const params: unknown[] = [TRASH_PAGE_SIZE + 1];
    let position = '';
    if (after) {
      params.push(after.micros, after.kind, after.id);
      position = `WHERE (x.deleted_at, x.kind, x.id) <
        ('epoch'::timestamptz + $2::bigint * interval '1 microsecond', $3::text, $4::int)`;
    }
    const rows: TrashRow[] = await this.dataSource.query(
      `SELECT x.kind, x.id, x.thread_id AS "pasteId", x.title, x.content, x.deleted_at AS "deletedAt",
         (extract(epoch FROM x.deleted_at) * 1000000)::bigint::text AS "deletedMicros",
         x."pasteKey", x."pasteVisibility", x."pasteBurns",
         ${authorJson('a')} AS author, ${authorJson('d')} AS "deletedBy"
       FROM (
         SELECT 'paste'::text AS kind, t.id, t.id AS thread_id, t.title, left(t.content, ${EXCERPT_MAX}) AS content,
           t.author_id, t.deleted_at, t.deleted_by, ${REF_COLUMNS('t')}
         FROM threads t WHERE t.deleted_at IS NOT NULL AND ${IN_TRASH('t.deleted_at')}
         UNION ALL
         SELECT 'reply'::text, r.id, r.thread_id, t.title, left(r.content, ${EXCERPT_MAX}),
           r.author_id, r.deleted_at, r.deleted_by, ${REF_COLUMNS('t')}
         FROM replies r JOIN threads t ON t.id = r.thread_id
         WHERE r.deleted_at IS NOT NULL AND ${IN_TRASH('r.deleted_at')} AND ${aliveSql('t')}
       ) x ${authorJoin('a', 'x.author_id')} ${authorJoin('d', 'x.deleted_by')}
       ${position}
       ORDER BY x.deleted_at DESC, x.kind DESC, x.id DESC LIMIT $1`,
      params,
    );
    const more = rows.length > TRASH_PAGE_SIZE;
    const page = more ? rows.slice(0, TRASH_PAGE_SIZE) : rows;
    return {
      entries: page.map((row) => toTrashEntry(row, EXCERPT_MAX)),
      nextCursor: more ? encodeTrashCursor(page[page.length - 1]!) : null,
    };
  }

  /** Deletes the locked-or-lockable paste `threadId` in `manager`'s transaction; 404 when not alive. */
  private async trashPaste(
    manager: EntityManager,
    threadId: number,
    actor: AuditActor,
    audited: boolean,
  ): Promise<Moved> {
    takeLock(manager, 'paste', [threadId]);
    const [paste]: Array<TrashedRow & { authorName: string | null }> = await manager.query(
      `SELECT ${TRASHED_SELECT}, a.username::text AS "authorName"
       FROM threads t ${authorJoin('a', 't.author_id')} WHERE t.id = $1 AND ${aliveSql('t')} FOR UPDATE OF t`,
      [threadId],
    );
    if (!paste) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
    if (audited) {
      await this.audit.record(manager, actor, {
        action: 'thread.delete',
        targetType: 'thread',
        targetId: threadId,
        targetLabel: paste.title,
        before: {
          title: paste.title,
          authorId: paste.authorId,
          authorName: paste.authorName,
          replyCount: paste.replyCount,
          viewCount: paste.viewCount + this.views.pending(threadId),
          voteScore: paste.voteScore,
        },
        after: null,
      });
    }
    await manager.query('UPDATE threads SET deleted_at = now(), deleted_by = $2 WHERE id = $1', [
      threadId,
      actor.id,
    ]);
    const { rankMoved, profiles } = await this.movePasteCounts(manager, threadId, paste, -1);
    return { threadId, listed: paste.listed, rankMoved, profiles, forkedFrom: paste.forkedFromId };
  }

  /**
   * A paste leaving (-1) or coming back (+1): the paste counts (if listed), its replies' authors' reply
   * counts and its earned reputation. Answers whether its author's rank moved, and whose counts did.
   */
  private async movePasteCounts(
    manager: EntityManager,
    threadId: number,
    paste: Row<Paste, 'authorId' | 'listed'>,
    sign: 1 | -1,
  ): Promise<{ rankMoved: boolean; profiles: number[] }> {
    if (paste.listed) {
      await manager.query(
        `UPDATE forum_stats SET thread_count = thread_count + $1 WHERE slot = ${PASTE_STATS_SLOT}`,
        [sign],
      );
    }
    const counts: Array<{ authorId: number; n: number }> = await manager.query(
      `SELECT author_id AS "authorId", count(*)::int AS n FROM replies
       WHERE thread_id = $1 AND deleted_at IS NULL AND author_id IS NOT NULL
       GROUP BY author_id ORDER BY author_id`,
      [threadId],
    );
    const moves = new Map<number, { pastes: number; replies: number }>(
      counts.map(({ authorId: id, n }) => [id, { pastes: 0, replies: sign * n }]),
    );
    if (paste.authorId !== null && paste.listed) {
      const own = moves.get(paste.authorId) ?? { pastes: 0, replies: 0 };
      moves.set(paste.authorId, { ...own, pastes: sign });
    }
    const profiles = [...moves.keys()].sort((a, b) => a - b);
    for (const id of profiles) await this.users.moveCounts(manager, id, moves.get(id)!);
    if (paste.authorId === null) return { rankMoved: false, profiles };
    const change = await this.reputation.settlePosts(
      manager,
      paste.authorId,
      [{ threadId, replyId: null }],
      sign === 1,
    );
    const rankMoved = change !== null && rankChanges(change.reputation - change.points, change.points);
    return { rankMoved, profiles: [...new Set([...profiles, paste.authorId])] };
  }

  /**
   * Locks every post deletePostsOf may trash, in the lock order before any member's row: the pastes
   * (the member's, and those their replies are on), then the replies, each in id order.
   */
  private async lockPostsOf(manager: EntityManager, userId: number): Promise<void> {
    takeLock(manager, 'paste');
    const pastes: Array<{ id: number }> = await manager.query(
      `SELECT id FROM threads WHERE id IN (
         SELECT id FROM threads WHERE author_id = $1 AND deleted_at IS NULL
         UNION SELECT thread_id FROM replies WHERE author_id = $1 AND deleted_at IS NULL
       ) ORDER BY id FOR UPDATE`,
      [userId],
    );
    takeLock(
      manager,
      'paste',
      pastes.map((paste) => paste.id),
    );
    const replies: Array<{ id: number }> = await manager.query(
      'SELECT id FROM replies WHERE author_id = $1 AND deleted_at IS NULL ORDER BY id FOR UPDATE',
      [userId],
    );
    takeLock(
      manager,
      'reply',
      replies.map((reply) => reply.id),
    );
  }

  /**
   * Reply `replyId`, alive under a paste alive, with its paste locked then itself (404 otherwise). A
   * member (`viewerId`) reaches it only through a paste they may read; staff (`anyVisibility`) through any.
   */
  private async lockLiveReply(
    manager: EntityManager,
    replyId: number,
    viewerId: number | null,
    { anyVisibility = false } = {},
  ): Promise<LiveReply> {
    const readable = anyVisibility
      ? aliveSql('t')
      : `${aliveSql('t')} AND (t.visibility <> 'private' OR t.author_id = $2::int)`;
    const [found]: Array<Row<Reply, 'pasteId'>> = await manager.query(
      `SELECT r.thread_id AS "pasteId" FROM replies r JOIN threads t ON t.id = r.thread_id
       WHERE r.id = $1 AND r.deleted_at IS NULL AND ${readable}`,
      anyVisibility ? [replyId] : [replyId, viewerId],
    );
    if (!found) throw new NotFoundException(POST_MESSAGES.replyNotFound);
    takeLock(manager, 'paste', [found.pasteId]);
    const [paste]: Array<Row<Paste, 'listed'>> = await manager.query(
      `SELECT t.listed FROM threads t WHERE t.id = $1 AND ${aliveSql('t')} FOR UPDATE`,
      [found.pasteId],
    );
    takeLock(manager, 'reply', [replyId]);
    const [reply]: Array<Row<Reply, 'authorId' | 'content'>> = await manager.query(
      'SELECT author_id AS "authorId", content FROM replies WHERE id = $1 AND deleted_at IS NULL FOR UPDATE',
      [replyId],
    );
    if (!paste || !reply) throw new NotFoundException(POST_MESSAGES.replyNotFound);
    return { pasteId: found.pasteId, listed: paste.listed, ...reply };
  }

  /** Deletes the locked reply (`withReplies`: and every live reply under it) in `manager`'s transaction. */
  private async trashReplies(
    manager: EntityManager,
    reply: LiveReply,
    replyId: number,
    actor: AuditActor,
    { withReplies, audited }: { withReplies: boolean; audited: boolean },
  ): Promise<Moved> {
    if (audited) {
      const [paste]: Array<Row<Paste, 'title'> & { authorName: string | null }> = await manager.query(
        `SELECT t.title, a.username::text AS "authorName" FROM threads t, replies r
         ${authorJoin('a', 'r.author_id')} WHERE t.id = $1 AND r.id = $2`,
        [reply.pasteId, replyId],
      );
      await this.audit.record(manager, actor, {
        action: 'reply.delete',
        targetType: 'reply',
        targetId: replyId,
        targetLabel: excerpt(reply.content),
        before: {
          threadId: reply.pasteId,
          threadTitle: paste?.title ?? null,
          authorId: reply.authorId,
          authorName: paste?.authorName ?? null,
          content: reply.content.slice(0, AUDIT_CONTENT_MAX),
        },
        after: null,
      });
    }
    const [gone]: Array<{ replies: Array<Row<Reply, 'id' | 'authorId'>> }> = await manager.query(
      `WITH RECURSIVE sub AS (
         SELECT id FROM replies WHERE id = $1
         ${withReplies ? 'UNION ALL SELECT r.id FROM replies r JOIN sub ON r.parent_id = sub.id' : ''}
       ), trashed AS (
         UPDATE replies r SET deleted_at = now(), deleted_by = $2 FROM sub
         WHERE r.id = sub.id AND r.deleted_at IS NULL RETURNING r.id, r.author_id
       )
       SELECT COALESCE(json_agg(json_build_object('id', id, 'authorId', author_id)), '[]') AS replies
       FROM trashed`,
      [replyId, actor.id],
    );
    const { rankMoved, profiles, replyCount } = await this.moveReplyCounts(
      manager,
      reply.pasteId,
      gone!.replies,
      -1,
    );
    return {
      threadId: reply.pasteId,
      listed: reply.listed,
      rankMoved,
      profiles,
      replyId,
      replyCount,
      alone: !withReplies,
    };
  }

  /**
   * Replies leaving (-1) or coming back (+1): the paste's reply count and last reply, their authors'
   * reply counts and the reputation each earned.
   */
  private async moveReplyCounts(
    manager: EntityManager,
    threadId: number,
    replies: ReadonlyArray<Row<Reply, 'id' | 'authorId'>>,
    sign: 1 | -1,
  ): Promise<{ rankMoved: boolean; profiles: number[]; replyCount: number }> {
    const [[counted]] = (await manager.query(
      `UPDATE threads t SET reply_count = GREATEST(t.reply_count + $2, 0),
         last_reply_at = last.created_at, last_reply_author_id = last.author_id
       FROM (SELECT NULL) AS nothing
       LEFT JOIN LATERAL (SELECT created_at, author_id FROM replies
                          WHERE thread_id = $1 AND deleted_at IS NULL
                          ORDER BY created_at DESC, id DESC LIMIT 1) last ON true
       WHERE t.id = $1 RETURNING t.reply_count AS "replyCount"`,
      [threadId, sign * replies.length],
    )) as [Array<Row<Paste, 'replyCount'>>, number];
    const byAuthor = new Map<number, number[]>();
    for (const { id, authorId } of replies) {
      if (authorId !== null) byAuthor.set(authorId, [...(byAuthor.get(authorId) ?? []), id]);
    }
    let rankMoved = false;
    for (const authorId of [...byAuthor.keys()].sort((a, b) => a - b)) {
      const ids = byAuthor.get(authorId)!;
      await this.users.moveCounts(manager, authorId, { replies: sign * ids.length });
      const change = await this.reputation.settlePosts(
        manager,
        authorId,
        ids.map((id) => ({ threadId, replyId: id })),
        sign === 1,
      );
      if (change !== null && rankChanges(change.reputation - change.points, change.points)) rankMoved = true;
    }
    return { rankMoved, profiles: [...byAuthor.keys()], replyCount: counted?.replyCount ?? 0 };
  }

  /**
   * Tells every instance which pages the committed change made stale: the lists and the paste's page
   * (every page when a rank moved), with the live event for the sockets watching a listed paste.
   */
  private announce(moved: Moved, event?: PasteLiveEvent): Promise<void> {
    const change: Omit<PagesChanged, 'type'> = moved.rankMoved
      ? { all: true }
      : {
          lists: true,
          threads: moved.forkedFrom ? [moved.threadId, moved.forkedFrom] : [moved.threadId],
          profiles: moved.profiles,
        };
    return announcePagesChanged(this.events, change, this.logger, moved.listed ? event : undefined);
  }

  private announceReply(moved: Moved): Promise<void> {
    return this.announce(moved, {
      type: PASTE_LIVE_EVENT.replyDeleted,
      threadId: moved.threadId,
      replyId: moved.replyId!,
      replyCount: moved.replyCount!,
      ...(moved.alone ? { alone: true } : {}),
    });
  }
}
