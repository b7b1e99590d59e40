import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  Logger,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import {
  type AuditAction,
  type CreateReplyBody,
  type CreateThreadBody,
  type DirectoryUser,
  FEATURED_MAX,
  FORUM_MESSAGES,
  PINNED_MAX,
  type PublicAuthor,
  rankChanges,
  type RecentThreadsPage,
  REPUTATION,
  type ReplyView,
  SEARCH_CANDIDATES_MAX,
  type SearchResults,
  type ThreadCard,
  type ThreadDetail,
  type ThreadFlags,
  THREADS_PAGE_SIZE,
  type UserProfile,
  USERS_PAGE_SIZE,
  type UsersPage,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { type AuditActor, AuditService, excerpt } from '../audit/audit.service.js';
import { mentionsAnyone } from '../notifications/mentions.js';
import { notificationJobSql } from '../notifications/notifications.queue.js';
import { outboxInsertSql } from '../../infra/outbox/outbox.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { prepare, queryPrepared } from '../../infra/database/prepared.js';
import { announcePagesChanged, EventsPort, type PagesChanged } from '../../infra/events/events.port.js';
import { ViewCounter } from './view-counter.js';
import { createdMicros, decodeCursor, encodeCursor, keysetPage } from '../../common/keyset-cursor.js';
import { containsPattern } from '../../common/like-pattern.js';
import { retryOnConflict } from '../../common/retry-on-conflict.js';
import { cappedAwardCtes, ReputationService } from '../ranks/reputation.service.js';
import { authorJson, ownedActiveRank } from '../users/author-sql.js';
import type { User } from '../users/entities/user.entity.js';

const CARD_COLUMNS = `t.id, t.title, t.created_at, t.view_count, t.vote_score, t.reply_count, t.is_pinned,
  t.is_locked, t.is_featured, t.last_reply_at,
  ${createdMicros('t')} AS created_micros,
  ${authorJson('a')} AS author, ${authorJson('l')} AS last_reply_author`;

const CARD_FROM = `threads t LEFT JOIN users a ON a.id = t.author_id
  LEFT JOIN users l ON l.id = t.last_reply_author_id`;

interface CardRow {
  id: number;
  title: string;
  created_at: Date;
  view_count: number;
  vote_score: number;
  reply_count: number;
  is_pinned: boolean;
  is_locked: boolean;
  is_featured: boolean;
  last_reply_at: Date | null;
  created_micros: string;
  author: PublicAuthor | null;
  last_reply_author: PublicAuthor | null;
}

function toCard(row: CardRow): ThreadCard {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at.toISOString(),
    author: row.author,
    viewCount: row.view_count,
    voteScore: row.vote_score,
    replyCount: row.reply_count,
    isPinned: row.is_pinned,
    isLocked: row.is_locked,
    isFeatured: row.is_featured,
    lastReplyAt: row.last_reply_at?.toISOString() ?? null,
    lastReplyAuthor: row.last_reply_author,
  };
}

/** A paste's flags an admin toggles, and the audit actions of turning each on and off. */
type ThreadFlag = 'is_pinned' | 'is_locked' | 'is_featured';
const FLAG_ACTIONS: Record<ThreadFlag, { key: keyof ThreadFlags; on: AuditAction; off: AuditAction }> = {
  is_pinned: { key: 'isPinned', on: 'thread.pin', off: 'thread.unpin' },
  is_locked: { key: 'isLocked', on: 'thread.lock', off: 'thread.unlock' },
  is_featured: { key: 'isFeatured', on: 'thread.feature', off: 'thread.unfeature' },
};
/** How much of a deleted reply's text its audit entry keeps. */
const AUDIT_CONTENT_MAX = 1000;

/**
 * The rows of `forum_stats` (migration 1796020000000): each transaction counts its pastes in its
 * connection's slot, so concurrent writes do not queue on one row; the count is their sum.
 */
const FORUM_STATS_SLOT = 'pg_backend_pid() % 16';

/** In a new paste's statement (CTE `created`): its @mention notification job, to the outbox. */
const THREAD_JOB_SQL = outboxInsertSql('created', notificationJobSql('thread'));
/** A new paste's +5 (within the day's cap, on the ledger), in its statement: $3 the author, $4 the points, $5 the cap. */
const PASTE_AWARD = cappedAwardCtes({
  userId: '$3',
  reason: 'paste',
  points: '$4',
  cap: '$5',
  source: 'created',
  threadId: 's.id',
  replyId: 'NULL',
});
/** A new paste's statement (ForumService.createThread); with `queued`, its mentions' job to the outbox. */
const createThreadSql = (queued: boolean): string =>
  `WITH ${PASTE_AWARD.daily}, author AS (
     UPDATE users SET thread_count = thread_count + 1,
       reputation = reputation + COALESCE((SELECT points FROM daily), 0)
     WHERE id = $3
     RETURNING id
   ), created AS (
     INSERT INTO threads (title, content, author_id) SELECT $1, $2, id FROM author RETURNING id
   ), counted AS (
     UPDATE forum_stats SET thread_count = thread_count + (SELECT count(*) FROM created)
     WHERE slot = ${FORUM_STATS_SLOT}
   ), ${PASTE_AWARD.logged}${queued ? `, queued AS (${THREAD_JOB_SQL})` : ''}
   SELECT id, (SELECT points FROM daily) AS points FROM created`;
const CREATE_THREAD = prepare('thread-create', createThreadSql(false));
const CREATE_THREAD_NOTIFYING = prepare('thread-create-notifying', createThreadSql(true));
/** In a new reply's statement (CTE `reply`): its notification job, to the outbox. */
const REPLY_JOB_SQL = outboxInsertSql('reply', notificationJobSql('reply'));

/** Search reads this many of the newest pastes to see how common the words are (ForumService.search). */
export const SEARCH_PROBE = 1_000;
/** Search walks no further than this many of the newest pastes for a common word's candidates. */
export const SEARCH_WINDOW = 50_000;

interface DirectoryRow {
  id: number;
  username: string;
  avatar_url: string | null;
  profile_image_url: string | null;
  first_name: string | null;
  last_name: string | null;
  reputation: number;
  active_premium_rank: string | null;
  thread_count: number;
  reply_count: number;
  created_at: Date;
  is_admin: boolean;
  is_owner: boolean;
}

function toDirectoryUser(row: DirectoryRow): DirectoryUser {
  return {
    id: row.id,
    username: row.username,
    avatarUrl: row.avatar_url,
    profileImageUrl: row.profile_image_url,
    firstName: row.first_name,
    lastName: row.last_name,
    reputation: row.reputation,
    activePremiumRank: row.active_premium_rank,
    threadCount: row.thread_count,
    replyCount: row.reply_count,
    createdAt: row.created_at.toISOString(),
    isAdmin: row.is_admin,
    isOwner: row.is_owner,
  };
}

/** Pastes, replies and search (SPEC §3): every counter is kept in the transaction of its write. */
@Injectable()
export class ForumService {
  private readonly logger = new Logger('Forum');

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly audit: AuditService,
    private readonly views: ViewCounter,
    private readonly events: EventsPort,
    private readonly reputation: ReputationService,
  ) {}

  /**
   * Tells every instance which public pages a committed write made stale (their caches drop them). An
   * author who `gained` reputation and so moved to another rank shows it on every page they wrote on.
   */
  private pagesChanged(change: Omit<PagesChanged, 'type'>, author?: User, gained = 0): Promise<void> {
    const moved = author !== undefined && rankChanges(author.reputation, gained);
    return announcePagesChanged(this.events, moved ? { all: true } : change, this.logger);
  }

  async recent(cursor?: string): Promise<RecentThreadsPage> {
    const pinned: CardRow[] = cursor
      ? []
      : await this.dataSource.query(
          `SELECT ${CARD_COLUMNS} FROM ${CARD_FROM} WHERE t.is_pinned ORDER BY t.created_at DESC, t.id DESC
           LIMIT ${PINNED_MAX}`,
        );
    const { rows, nextCursor } = await keysetPage<CardRow>(
      (sql, params) => this.dataSource.query(sql, params),
      {
        alias: 't',
        select: CARD_COLUMNS,
        from: CARD_FROM,
        where: 'NOT t.is_pinned',
        params: [],
        pageSize: THREADS_PAGE_SIZE,
        cursor,
      },
    );
    const [stats]: Array<{ thread_count: number }> = await this.dataSource.query(
      'SELECT GREATEST(sum(thread_count), 0)::int AS thread_count FROM forum_stats',
    );
    return {
      pinned: pinned.map(toCard),
      threads: rows.map(toCard),
      nextCursor,
      total: stats?.thread_count ?? 0,
    };
  }

  async featured(): Promise<ThreadCard[]> {
    const rows: CardRow[] = await this.dataSource.query(
      `SELECT ${CARD_COLUMNS} FROM ${CARD_FROM} WHERE t.is_featured ORDER BY t.created_at DESC, t.id DESC
       LIMIT ${FEATURED_MAX}`,
    );
    return rows.map(toCard);
  }

  /**
   * The paste with its replies as every visitor sees it (`myVote` null throughout: see `votesOf`), and
   * the view count stored with it, read consistently with the ViewCounter's pending views (see `viewed`).
   */
  async detail(id: number): Promise<{ detail: ThreadDetail; storedViews: number }> {
    const [row] = await this.views.consistentRead((): Promise<Array<CardRow & { content: string }>> =>
      this.dataSource.query(`SELECT ${CARD_COLUMNS}, t.content FROM ${CARD_FROM} WHERE t.id = $1`, [id]),
    );
    if (!row) throw new NotFoundException(FORUM_MESSAGES.threadNotFound);
    const replies: Array<{
      id: number;
      thread_id: number;
      parent_id: number | null;
      content: string;
      created_at: Date;
      vote_score: number;
      author: PublicAuthor | null;
    }> = await this.dataSource.query(
      `SELECT r.id, r.thread_id, r.parent_id, r.content, r.created_at, r.vote_score, ${authorJson('a')} AS author
       FROM replies r LEFT JOIN users a ON a.id = r.author_id
       WHERE r.thread_id = $1 ORDER BY r.created_at, r.id`,
      [id],
    );
    const detail: ThreadDetail = {
      ...toCard(row),
      content: row.content,
      myVote: null,
      replies: replies.map((r): ReplyView => ({
        id: r.id,
        threadId: r.thread_id,
        parentId: r.parent_id,
        content: r.content,
        createdAt: r.created_at.toISOString(),
        author: r.author,
        voteScore: r.vote_score,
        myVote: null,
      })),
    };
    return { detail, storedViews: row.view_count };
  }

  /**
   * Counts one view of a paste that exists (in memory: the ViewCounter stores views in batches) and
   * returns its view count now: `storedViews` (read by `detail`) plus this process's pending views.
   */
  viewed(id: number, storedViews: number): number {
    this.views.count(id);
    return storedViews + this.views.pending(id);
  }

  async raw(id: number): Promise<string> {
    const [row]: Array<{ content: string }> = await this.dataSource.query(
      'SELECT content FROM threads WHERE id = $1',
      [id],
    );
    if (!row) throw new NotFoundException(FORUM_MESSAGES.threadNotFound);
    return row.content;
  }

  /**
   * A new paste in one prepared statement (one round trip, planned once a connection): +5 reputation within the day's cap (the member's
   * 'paste' row of reputation_daily, then the ledger row: PASTE_AWARD), the author's row (thread count
   * and reputation), the paste, then the forum's count, always in that order (each step reads the one
   * before), so it cannot deadlock with a deletion; a paste that @mentions anyone writes its
   * notification job to the outbox in it too.
   */
  async createThread(author: User, body: CreateThreadBody): Promise<{ id: number }> {
    const notifies = await mentionsAnyone(body.content);
    const [row] = await queryPrepared<{ id: number; points: number | null }>(
      this.dataSource,
      notifies ? CREATE_THREAD_NOTIFYING : CREATE_THREAD,
      [body.title, body.content, author.id, REPUTATION.thread, this.reputation.dailyCap('paste')],
    );
    // The account was deleted since the guard loaded it: signed out.
    if (!row) throw new UnauthorizedException();
    if (notifies) this.outbox.committed();
    await this.pagesChanged({ lists: true }, author, row.points ?? 0);
    return { id: row.id };
  }

  /**
   * A reply; +2 reputation (within the day's cap, on the ledger) and the counters of the paste and the
   * author, and its notification job (to the outbox), in one transaction.
   */
  async createReply(author: User, threadId: number, body: CreateReplyBody): Promise<{ id: number }> {
    // A reply and a vote on the same paste or author race for their rows: a deadlock's victim runs again.
    const created = await retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        const [thread]: Array<{ is_locked: boolean }> = await manager.query(
          'SELECT is_locked FROM threads WHERE id = $1 FOR UPDATE',
          [threadId],
        );
        if (!thread) throw new NotFoundException(FORUM_MESSAGES.threadNotFound);
        if (thread.is_locked && !author.isAdmin) throw new ForbiddenException(FORUM_MESSAGES.threadLocked);
        const parentId = body.parentId ?? null;
        if (parentId !== null) {
          const [parent] = await manager.query('SELECT 1 FROM replies WHERE id = $1 AND thread_id = $2', [
            parentId,
            threadId,
          ]);
          if (!parent) throw new BadRequestException(FORUM_MESSAGES.parentNotInThread);
        }
        const [reply]: Array<{ id: number; created_at: Date }> = await manager.query(
          `WITH reply AS (
           INSERT INTO replies (thread_id, parent_id, author_id, content) VALUES ($1, $2, $3, $4)
           RETURNING id, created_at
         ), queued AS (${REPLY_JOB_SQL})
         SELECT id, created_at FROM reply`,
          [threadId, parentId, author.id, body.content],
        );
        await manager.query(
          `UPDATE threads SET reply_count = reply_count + 1, last_reply_at = $2, last_reply_author_id = $3
         WHERE id = $1`,
          [threadId, reply!.created_at, author.id],
        );
        await manager.query('UPDATE users SET reply_count = reply_count + 1 WHERE id = $1', [author.id]);
        const source = { sourceId: reply!.id, threadId, replyId: reply!.id };
        const change = await this.reputation.earn(manager, author.id, 'reply', REPUTATION.reply, source);
        return { id: reply!.id, earned: change.points };
      }),
    );
    this.outbox.committed();
    await this.pagesChanged({ lists: true, threads: [threadId] }, author, created.earned);
    return { id: created.id };
  }

  /**
   * Full-text search: relevance (title above content), then recency; 50 a page. Only the newest
   * `candidates` matches (SEARCH_CANDIDATES_MAX) are ranked and paged, and `total` counts no further
   * (`totalCapped`), so no query reads, ranks or counts every match of a common word:
   *
   * 1. A probe: how many of the newest `probe` pastes match (an index walk, newest first). This sees what
   *    the planner's statistics cannot: words that go together (`kernel panic`), a phrase of common words
   *    that seldom stand together.
   * 2. Common words: walk threads_created_idx newest first and stop at the cap, never past the newest
   *    `window` pastes. Rare words (or a walk that ran out of window): the newest matches from the GIN
   *    index alone, which reads no more rows than hold every word (a walk there could read the table).
   * 3. The candidates are ranked (ts_rank reads each one's whole vector) and the page's cards are read.
   */
  async search(
    query: string,
    page: number,
    { candidates: cap = SEARCH_CANDIDATES_MAX, window = SEARCH_WINDOW, probe = SEARCH_PROBE } = {},
  ): Promise<SearchResults> {
    const matches = `t.search @@ websearch_to_tsquery('english', $1)`;
    const newest = (limit: string) =>
      `SELECT t.id, t.search FROM threads t ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}`;
    const [sample]: Array<{ examined: number; hits: number; pastes: number | null }> =
      await this.dataSource.query(
        `SELECT count(*)::int AS examined, (count(*) FILTER (WHERE ${matches}))::int AS hits,
           (SELECT max(id) FROM threads) AS pastes
         FROM (${newest('$2')}) t`,
        [query, probe],
      );
    const { examined, hits } = sample!;
    const pastes = sample!.pastes ?? 0; // at least as many ids as pastes
    // Walk when that reads fewer rows than the GIN index would point at (a walk's rows lie together in
    // the table, the index's are scattered over it; a phrase has the index's rows read whole, too).
    const walked = hits ? ((cap + 1) * examined) / hits : Infinity;
    const pointedAt = (hits / Math.max(examined, 1)) * pastes;
    let found: Array<{ id: number }> | undefined;
    if (walked <= window && walked <= pointedAt) {
      const walk: Array<{ id: number }> = await this.dataSource.query(
        `SELECT t.id FROM (${newest('$2')}) t WHERE ${matches} LIMIT $3`,
        [query, window, cap + 1],
      );
      if (walk.length > cap || pastes <= window) found = walk;
    }
    found ??= await this.dataSource.transaction(async (manager): Promise<Array<{ id: number }>> => {
      // The GIN index, whatever the statistics say: no walk, no sequential scan.
      await manager.query(
        "SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)",
      );
      return manager.query(
        `SELECT t.id FROM threads t WHERE ${matches} ORDER BY t.created_at DESC, t.id DESC LIMIT $2`,
        [query, cap + 1],
      );
    });
    const offset = (page - 1) * THREADS_PAGE_SIZE;
    const ids = found.slice(0, cap).map((row) => row.id);
    const rows: CardRow[] =
      offset < ids.length
        ? await this.dataSource.query(
            `WITH ranked AS MATERIALIZED (
               SELECT t.id, t.created_at, ts_rank(t.search, websearch_to_tsquery('english', $1)) AS rank
               FROM threads t WHERE t.id = ANY ($2::int[])
             )
             SELECT ${CARD_COLUMNS}
             FROM (SELECT id, created_at, rank FROM ranked
                   ORDER BY rank DESC, created_at DESC, id DESC LIMIT $3 OFFSET $4) r
             JOIN ${CARD_FROM} ON t.id = r.id
             ORDER BY r.rank DESC, r.created_at DESC, r.id DESC`,
            [query, ids, THREADS_PAGE_SIZE + 1, offset],
          )
        : [];
    return {
      threads: rows.slice(0, THREADS_PAGE_SIZE).map(toCard),
      page,
      hasMore: rows.length > THREADS_PAGE_SIZE,
      total: ids.length,
      totalCapped: found.length > cap,
    };
  }

  /**
   * The users directory: members by reputation (highest first, then newest), keyset-paged 50 at a time;
   * `filter` keeps those whose username contains it, in any letter case (the trigram index serves it).
   */
  async directory(filter: string, cursor?: string): Promise<UsersPage> {
    // The cursor: the last member's (reputation, id).
    const after = cursor ? decodeCursor(cursor, 'int') : undefined;
    const params: unknown[] = [USERS_PAGE_SIZE + 1];
    const conditions: string[] = [];
    if (filter) {
      params.push(containsPattern(filter));
      conditions.push(`lower(u.username::text) LIKE $${params.length}`);
    }
    if (after) {
      params.push(Number(after.key), after.id);
      conditions.push(`(u.reputation, u.id) < ($${params.length - 1}::integer, $${params.length}::integer)`);
    }
    const rows: DirectoryRow[] = await this.dataSource.query(
      `SELECT u.id, u.username::text AS username, u.avatar_url, u.profile_image_url, u.first_name, u.last_name,
         u.reputation, ${ownedActiveRank('u')} AS active_premium_rank, u.thread_count, u.reply_count,
         u.created_at, u.is_admin, u.is_owner
       FROM users u ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
       ORDER BY u.reputation DESC, u.id DESC LIMIT $1`,
      params,
    );
    const users = rows.slice(0, USERS_PAGE_SIZE).map(toDirectoryUser);
    const last = users.at(-1);
    return {
      users,
      nextCursor: rows.length > USERS_PAGE_SIZE && last ? encodeCursor(last.reputation, last.id) : null,
    };
  }

  async profile(userId: number): Promise<UserProfile> {
    const [user]: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT u.id, u.username::text AS username, u.first_name, u.last_name, u.avatar_url,
         u.profile_image_url, u.bio, u.reputation, ${ownedActiveRank('u')} AS active_premium_rank,
         u.owned_premium_ranks, u.thread_count, u.reply_count, u.created_at, u.is_admin, u.is_owner, u.is_banned
       FROM users u WHERE u.id = $1`,
      [userId],
    );
    if (!user) throw new NotFoundException(FORUM_MESSAGES.userNotFound);
    const threads: CardRow[] = await this.dataSource.query(
      `SELECT ${CARD_COLUMNS} FROM ${CARD_FROM} WHERE t.author_id = $1
       ORDER BY t.created_at DESC, t.id DESC LIMIT 10`,
      [userId],
    );
    return {
      id: user['id'] as number,
      username: user['username'] as string,
      firstName: user['first_name'] as string | null,
      lastName: user['last_name'] as string | null,
      avatarUrl: user['avatar_url'] as string | null,
      profileImageUrl: user['profile_image_url'] as string | null,
      bio: user['bio'] as string | null,
      reputation: user['reputation'] as number,
      activePremiumRank: user['active_premium_rank'] as string | null,
      ownedPremiumRanks: user['owned_premium_ranks'] as string[],
      threadCount: user['thread_count'] as number,
      replyCount: user['reply_count'] as number,
      createdAt: (user['created_at'] as Date).toISOString(),
      isAdmin: user['is_admin'] as boolean,
      isOwner: user['is_owner'] as boolean,
      isBanned: user['is_banned'] as boolean,
      recentThreads: threads.map(toCard),
    };
  }

  /** Flips one flag of a paste; `actor` (an admin) is recorded in the audit log, in the same transaction. */
  async toggle(threadId: number, flag: ThreadFlag, actor: AuditActor): Promise<ThreadFlags> {
    const flags = await this.dataSource.transaction(async (manager) => {
      const [rows] = (await manager.query(
        `UPDATE threads SET ${flag} = NOT ${flag} WHERE id = $1
         RETURNING title, is_pinned, is_locked, is_featured`,
        [threadId],
      )) as [Array<{ title: string; is_pinned: boolean; is_locked: boolean; is_featured: boolean }>, number];
      const row = rows[0];
      if (!row) throw new NotFoundException(FORUM_MESSAGES.threadNotFound);
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
    await this.pagesChanged({ lists: true, threads: [threadId] });
    return flags;
  }

  /**
   * Deletes a paste with its replies and votes; the forum's count and the authors' thread and reply
   * counts go down with it. Reputation already earned is kept. `actor` (an admin) is recorded in the
   * audit log, in the same transaction.
   */
  async deleteThread(threadId: number, actor: AuditActor): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const [thread]: Array<{
        author_id: number | null;
        author_name: string | null;
        title: string;
        reply_count: number;
        view_count: number;
        vote_score: number;
      }> = await manager.query(
        `SELECT t.author_id, a.username::text AS author_name, t.title, t.reply_count, t.view_count, t.vote_score
         FROM threads t LEFT JOIN users a ON a.id = t.author_id WHERE t.id = $1 FOR UPDATE OF t`,
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
      if (thread.author_id !== null) {
        await manager.query('UPDATE users SET thread_count = GREATEST(thread_count - 1, 0) WHERE id = $1', [
          thread.author_id,
        ]);
      }
      await manager.query('DELETE FROM threads WHERE id = $1', [threadId]);
      await manager.query(
        `UPDATE forum_stats SET thread_count = thread_count - 1 WHERE slot = ${FORUM_STATS_SLOT}`,
      );
    });
    await this.pagesChanged({ lists: true, threads: [threadId] });
  }

  /**
   * Deletes a reply and the replies under it, keeping the paste's and the authors' counters right.
   * `actor` (an admin) is recorded in the audit log, in the same transaction.
   */
  async deleteReply(replyId: number, actor: AuditActor): Promise<void> {
    const pasteId = await this.dataSource.transaction(async (manager) => {
      const [reply]: Array<{
        thread_id: number;
        thread_title: string;
        author_id: number | null;
        author_name: string | null;
        content: string;
      }> = await manager.query(
        `SELECT r.thread_id, t.title AS thread_title, r.author_id, a.username::text AS author_name, r.content
         FROM replies r JOIN threads t ON t.id = r.thread_id LEFT JOIN users a ON a.id = r.author_id
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
      await manager.query(
        `UPDATE threads t SET reply_count = GREATEST(t.reply_count - $2, 0),
           last_reply_at = last.created_at, last_reply_author_id = last.author_id
         FROM (SELECT NULL) AS nothing
         LEFT JOIN LATERAL (SELECT created_at, author_id FROM replies WHERE thread_id = $1
                            ORDER BY created_at DESC, id DESC LIMIT 1) last ON true
         WHERE t.id = $1`,
        [reply.thread_id, removed],
      );
      return reply.thread_id;
    });
    await this.pagesChanged({ lists: true, threads: [pasteId] });
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
      await manager.query('UPDATE users SET reply_count = GREATEST(reply_count - $2, 0) WHERE id = $1', [
        authorId,
        n,
      ]);
    }
    return total;
  }
}
