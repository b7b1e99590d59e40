import { Injectable } from '@nestjs/common';
import {
  CAPPED_REPUTATION_REASONS,
  type CappedReputationReason,
  REPUTATION,
  type ReputationReason,
  type ReputationToday,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import {
  checkLockSequence,
  locking,
  type LockingSql,
  lockingSql,
  queryLocking,
} from '../../infra/database/lock-order.js';
import { sqlName, type Operand, type Param } from '../../infra/database/sql-operands.js';
import { existingUser, lockedUser, moveReputation } from '../users/user-sql.js';

/** What earned the points: the paste, reply, chat message or vote, and the paste and reply to link to. */
export interface ReputationSource {
  sourceId: number;
  threadId?: number | null;
  replyId?: number | null;
}

/** A member's reputation moved: by `points`, to `reputation`. */
export interface ReputationChange {
  userId: number;
  points: number;
  reputation: number;
}

/** A vote cast, switched or taken back (`value` null) on a paste or reply by `voterId`. */
export interface VoteChange {
  voterId: number;
  /** The author of the paste or reply voted on (null: a deleted account). */
  authorId: number | null;
  voteId: number;
  previous: 1 | -1 | null;
  value: 1 | -1 | null;
  threadId: number;
  replyId: number | null;
}

/** The first row an UPDATE … RETURNING gave (TypeORM answers an UPDATE with [rows, count]). */
async function updateReturning<Row>(
  manager: EntityManager,
  statement: LockingSql,
  params: unknown[],
): Promise<Row | undefined> {
  const [rows] = await queryLocking<[Row[], number]>(manager, statement, params);
  return rows[0];
}

/** Today in UTC, as PostgreSQL computes it for the transaction (its start). */
const TODAY = "(now() AT TIME ZONE 'UTC')::date";

/**
 * Upserts today's count of `reason` (a new paste's literal 'paste', or a parameter) in
 * `reputation_daily`, raised by what is left of the cap, returning `points` granted. Its update reads the
 * latest count under the row lock, so two concurrent writes cannot both take the last points.
 */
function dailyUpsert(sql: {
  user: string;
  reason: CappedReputationReason | Param;
  points: Param;
  cap: Param;
}): LockingSql {
  const { points, cap } = sql;
  const granted = `GREATEST(LEAST(${points}::int, ${cap}::int - d.earned), 0)`;
  const literal = sql.reason.startsWith('$') ? null : sql.reason;
  return locking(
    `INSERT INTO reputation_daily AS d (user_id, reason, day, earned, last_award)
     SELECT id, ${literal === null ? sql.reason : `'${literal}'`}, ${TODAY}, LEAST(${points}::int, ${cap}::int), LEAST(${points}::int, ${cap}::int)
     FROM (${sql.user}) member
     ON CONFLICT (user_id, reason) DO UPDATE SET
       last_award = CASE WHEN d.day = EXCLUDED.day THEN ${granted} ELSE EXCLUDED.earned END,
       earned = CASE WHEN d.day = EXCLUDED.day THEN d.earned + ${granted} ELSE EXCLUDED.earned END,
       day = EXCLUDED.day
     RETURNING last_award AS points`,
    literal === 'paste' ? 'paste-daily' : 'daily',
  );
}

/**
 * A capped award inside a new post's WITH: `daily` (first) locks the member's daily row of `reason` and
 * answers `points`; `logged` writes the ledger row for each row of the CTE `source`. The statement adds
 * `COALESCE((SELECT points FROM daily), 0)` in its UPDATE of the member's row (moveReputation).
 */
export function cappedAwardCtes(sql: {
  userId: Param;
  reason: CappedReputationReason;
  points: Param;
  cap: Param;
  source: string;
  threadId: Operand;
  replyId: Operand;
}): { daily: LockingSql; logged: LockingSql } {
  const { userId, reason, points, cap } = sql;
  return {
    daily: lockingSql`daily AS (${dailyUpsert({ user: existingUser(userId), reason, points, cap })})`,
    logged: locking(`logged AS (
       INSERT INTO reputation_ledger (user_id, points, reason, capped, source_id, thread_id, reply_id)
       SELECT ${userId}, daily.points, '${reason}', daily.points < ${points}::int, s.id, ${sql.threadId}, ${sql.replyId}
       FROM daily, ${sqlName(sql.source)} s
     )`),
  };
}

/** A vote's earlier award taken back ($1 the author, $2 the vote, $3 its paste, $4 its reply). */
const VOTE_UNDONE = lockingSql`WITH member AS (
     ${lockedUser('$1')}
   ), given AS (
     SELECT COALESCE(sum(points), 0)::int AS points FROM reputation_ledger
     WHERE reason IN ('vote', 'vote_undone') AND source_id = $2 AND user_id = (SELECT id FROM member)
   ), logged AS (
     INSERT INTO reputation_ledger (user_id, points, reason, source_id, thread_id, reply_id)
     SELECT $1, -points, 'vote_undone', $2, $3, $4 FROM given WHERE points <> 0
   )
   ${moveReputation({ id: '$1', points: '-(SELECT points FROM given)', skipZero: true, held: true })}
   RETURNING reputation, -(SELECT points FROM given) AS points`;

/** Posts' awards given back or earned again ($1 the member, $2/$3 pastes and replies, $4 restoring, $5 the reason). */
const SETTLE_POSTS = lockingSql`WITH member AS (
     ${lockedUser('$1')}
   ), posts AS (
     SELECT * FROM unnest($2::int[], $3::int[]) AS p (thread_id, reply_id)
   ), moves AS (
     SELECT p.thread_id, p.reply_id,
       (CASE WHEN $4::boolean
          THEN COALESCE(sum(l.points) FILTER (WHERE l.reason NOT IN ('post_deleted', 'post_restored')), 0)
          ELSE 0 END - COALESCE(sum(l.points), 0))::int AS points
     FROM posts p LEFT JOIN reputation_ledger l ON l.user_id = (SELECT id FROM member)
       AND CASE WHEN p.reply_id IS NULL THEN l.reply_id IS NULL AND l.thread_id = p.thread_id
                ELSE l.reply_id = p.reply_id END
     GROUP BY p.thread_id, p.reply_id
   ), logged AS (
     INSERT INTO reputation_ledger (user_id, points, reason, source_id, thread_id, reply_id)
     SELECT $1, points, $5, COALESCE(reply_id, thread_id), thread_id, reply_id FROM moves WHERE points <> 0
   )
   ${moveReputation({ id: '$1', points: '(SELECT sum(points) FROM moves)', skipZero: true, held: true })}
   RETURNING reputation, (SELECT sum(points) FROM moves)::int AS points`;

/** Points not subject to a cap ($1 the member, $2 points, $3 reason, $4-$6 the source). */
const RECORD = lockingSql`WITH logged AS (
     INSERT INTO reputation_ledger (user_id, points, reason, source_id, thread_id, reply_id)
     VALUES ($1, $2, $3, $4, $5, $6)
   )
   ${moveReputation({ id: '$1', points: '$2' })} RETURNING reputation`;

/**
 * Capped points, not for a new paste ($1 the member, $2 the reason, $3 points, $4 the cap, $5-$7 the
 * source): the member's row first, then their daily row.
 */
const EARN_CAPPED = lockingSql`WITH member AS (
     ${lockedUser('$1')}
   ), counted AS (
     ${dailyUpsert({ user: 'SELECT id FROM member', reason: '$2', points: '$3', cap: '$4' })}
   ), logged AS (
     INSERT INTO reputation_ledger (user_id, points, reason, capped, source_id, thread_id, reply_id)
     SELECT $1, points, $2, points < $3::int, $5, $6, $7 FROM counted
   )
   ${moveReputation({ id: '$1', points: '(SELECT points FROM counted)', held: true })}
   RETURNING reputation, (SELECT points FROM counted) AS points`;

for (const [name, statement] of Object.entries({ VOTE_UNDONE, SETTLE_POSTS, RECORD, EARN_CAPPED })) {
  checkLockSequence(name, statement.locks);
}

/**
 * Reputation: every change is a ledger row in the transaction of the write that earned it, and
 * `users.reputation` moves by as much, so it always equals the ledger's sum. Locks in the order of
 * infra/database/lock-order.ts.
 */
@Injectable()
export class ReputationService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: Pick<AppConfig, 'reputationDailyCaps'>,
  ) {}

  /** Today's cap of `reason` (REPUTATION_DAILY_CAP_*), for a statement that awards it (cappedAwardCtes). */
  dailyCap(reason: CappedReputationReason): number {
    return this.config.reputationDailyCaps[reason];
  }

  /**
   * Up to `points` for a paste, reply or chat message, as much as is left of today's cap (a 0-point row,
   * `capped`, once it is reached), in `manager`'s transaction.
   */
  earn(
    manager: EntityManager,
    userId: number,
    reason: Exclude<CappedReputationReason, 'vote' | 'paste'>,
    points: number,
    source: ReputationSource,
  ): Promise<ReputationChange> {
    return this.earnCapped(manager, userId, reason, points, source);
  }

  /**
   * A vote cast, switched or taken back: what it gave before is given back, then +1 up (within the cap)
   * or -1 down. Own posts and deleted accounts change nothing. In the vote's transaction, the post locked.
   */
  async voteChanged(manager: EntityManager, vote: VoteChange): Promise<ReputationChange | null> {
    const { authorId } = vote;
    if (authorId === null || authorId === vote.voterId) return null;
    const source = { sourceId: vote.voteId, threadId: vote.threadId, replyId: vote.replyId };
    let change: ReputationChange | null = null;
    if (vote.previous !== null) {
      // What this vote gave so far (nothing if it was cast before the ledger, or at the cap).
      const row = await updateReturning<{ reputation: number; points: number }>(manager, VOTE_UNDONE, [
        authorId,
        vote.voteId,
        vote.threadId,
        vote.replyId,
      ]);
      if (row) change = { userId: authorId, points: row.points, reputation: row.reputation };
    }
    if (vote.value === null) return change;
    const cast =
      vote.value === 1
        ? await this.earnCapped(manager, authorId, 'vote', REPUTATION.voteReceived, source)
        : await this.record(manager, authorId, 'vote', -REPUTATION.voteReceived, source);
    return { userId: authorId, points: (change?.points ?? 0) + cast.points, reputation: cast.reputation };
  }

  /**
   * A deleted post gives back what it earned (a `post_deleted` row to 0), a restored one earns it again
   * (`post_restored`). No row when nothing moves. In the delete's or restore's transaction, with the posts
   * locked (the member's row next, as everywhere).
   */
  async settlePosts(
    manager: EntityManager,
    userId: number,
    posts: ReadonlyArray<{ threadId: number; replyId: number | null }>,
    restoring: boolean,
  ): Promise<ReputationChange | null> {
    if (posts.length === 0) return null;
    const row = await updateReturning<{ reputation: number; points: number }>(manager, SETTLE_POSTS, [
      userId,
      posts.map((post) => post.threadId),
      posts.map((post) => post.replyId),
      restoring,
      restoring ? 'post_restored' : 'post_deleted',
    ]);
    return row ? { userId, points: row.points, reputation: row.reputation } : null;
  }

  /** Points not subject to a cap (a down-vote received). */
  private async record(
    manager: EntityManager,
    userId: number,
    reason: ReputationReason,
    points: number,
    source: ReputationSource,
  ): Promise<ReputationChange> {
    const row = await updateReturning<{ reputation: number }>(manager, RECORD, [
      userId,
      points,
      reason,
      source.sourceId,
      source.threadId ?? null,
      source.replyId ?? null,
    ]);
    return { userId, points, reputation: row?.reputation ?? 0 };
  }

  /**
   * One statement: lock the member's row, raise today's count of `reason` by what is
   * left of the cap, write the ledger row, move the reputation. The upsert reads the latest count under
   * its lock, so concurrent writes cannot both take the last points.
   */
  private async earnCapped(
    manager: EntityManager,
    userId: number,
    reason: Exclude<CappedReputationReason, 'paste'>,
    points: number,
    source: ReputationSource,
  ): Promise<ReputationChange> {
    const cap = this.config.reputationDailyCaps[reason];
    const row = await updateReturning<{ reputation: number; points: number }>(manager, EARN_CAPPED, [
      userId,
      reason,
      points,
      cap,
      source.sourceId,
      source.threadId ?? null,
      source.replyId ?? null,
    ]);
    return { userId, points: row?.points ?? 0, reputation: row?.reputation ?? 0 };
  }

  /** What the member earned today by each capped reason, and the caps. */
  async today(userId: number): Promise<ReputationToday> {
    const rows: Array<{ reason: CappedReputationReason; earned: number }> = await this.dataSource.query(
      `SELECT reason, earned FROM reputation_daily WHERE user_id = $1 AND day = ${TODAY}`,
      [userId],
    );
    const earned = new Map(rows.map((row) => [row.reason, row.earned]));
    const caps = this.config.reputationDailyCaps;
    const entry = (reason: CappedReputationReason) => ({
      earned: earned.get(reason) ?? 0,
      cap: caps[reason],
    });
    const today = Object.fromEntries(CAPPED_REPUTATION_REASONS.map((reason) => [reason, entry(reason)]));
    return today as ReputationToday;
  }
}
