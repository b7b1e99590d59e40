import { ForbiddenException, Injectable, Logger } from '@nestjs/common';
import {
  PASTE_LIVE_EVENT,
  OWN_POSTS_MESSAGES,
  rankChanges,
  type VoteBody,
  type VoteResult,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { lockingSql } from '../../infra/database/lock-order.js';
import { prepare, queryPrepared } from '../../infra/database/prepared.js';
import { announcePagesChanged, EventsPort, type PagesChanged } from '../../infra/events/events.port.js';
import { retryOnConflict } from '../../common/retry-on-conflict.js';
import { type ReputationChange, ReputationService } from '../ranks/reputation.service.js';
import { lockVoteTarget, moveScore, PasteScores, type VoteTarget } from '../pastes/paste-scores.js';
import type { User } from '../users/entities/user.entity.js';
import type { ViewerVotes, ViewerVotesReader } from '../pastes/viewer-votes.js';
import { resolvePaste, resolveReplyPaste } from '../pastes/visibility.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Vote } from './entities/vote.entity.js';

/**
 * A member's vote on a target, cast, taken back (the same value again) or switched, in one statement on
 * `votes`: what it did, and by how much the target's score moves. Locks no row the lock order knows
 * (the target is locked before it).
 */
const castSql = (column: 'thread_id' | 'reply_id') =>
  lockingSql`WITH existing AS (
     SELECT id, value FROM votes WHERE user_id = $1::integer AND ${column} = $2::integer
   ), inserted AS (
     INSERT INTO votes (user_id, ${column}, value)
     SELECT $1, $2, $3::smallint WHERE NOT EXISTS (SELECT 1 FROM existing) RETURNING id
   ), removed AS (
     DELETE FROM votes WHERE id = (SELECT id FROM existing WHERE value = $3::smallint) RETURNING id
   ), switched AS (
     UPDATE votes SET value = $3::smallint WHERE id = (SELECT id FROM existing WHERE value <> $3::smallint)
     RETURNING id
   )
   SELECT CASE
       WHEN EXISTS (SELECT 1 FROM removed) THEN -$3::int
       WHEN EXISTS (SELECT 1 FROM switched) THEN 2 * $3::int
       WHEN EXISTS (SELECT 1 FROM inserted) THEN $3::int
     END AS delta,
     EXISTS (SELECT 1 FROM removed) AS removed,
     COALESCE((SELECT id FROM existing), (SELECT id FROM inserted)) AS "voteId",
     (SELECT value FROM existing)::int AS previous`;

/** What a cast did: the score's move, whether it took the vote back, the vote's id, its value before. */
export interface Cast {
  delta: number;
  removed: boolean;
  voteId: number;
  previous: 1 | -1 | null;
}
type CastParams = [userId: number, targetId: number, value: 1 | -1];
const CAST = {
  paste: prepare<Cast, CastParams>('vote-cast-paste', castSql('thread_id')),
  reply: prepare<Cast, CastParams>('vote-cast-reply', castSql('reply_id')),
};

/** Casts member `userId`'s vote `value` on a locked target, in the caller's transaction. */
export async function castVote(
  manager: EntityManager,
  userId: number,
  target: VoteTarget,
  value: 1 | -1,
): Promise<Cast> {
  const [cast] = await queryPrepared(manager, CAST[target.kind], [userId, target.id, value]);
  return cast!;
}

type VoteOf = Row<Vote, 'replyId'> & { value: 1 | -1 };
const VOTES_OF = prepare<VoteOf, [userId: number, pasteId: number, replyIds: number[]]>(
  'votes-of-member',
  `SELECT reply_id AS "replyId", value::int AS value FROM votes
   WHERE user_id = $1 AND (thread_id = $2 OR reply_id = ANY ($3::int[]))`,
);

/** What a member voted on: a paste or a reply. */
const VOTED_COLUMNS = ['pasteId', 'replyId'] as const;
const VOTED_SELECT = selectColumns(Vote, 'v', VOTED_COLUMNS);
type VotedRow = Row<Vote, (typeof VOTED_COLUMNS)[number]>;

/**
 * Votes: a member's vote on a post, the score (PasteScores) and the author's reputation in one transaction.
 */
@Injectable()
export class VotesService implements ViewerVotesReader {
  private readonly logger = new Logger('Votes');

  constructor(
    private readonly dataSource: DataSource,
    private readonly scores: PasteScores,
    private readonly reputation: ReputationService,
    private readonly events: EventsPort,
  ) {}

  /**
   * Votes, takes back (same value again) or switches. The target is locked first, serialising one member's
   * votes on it; the vote's statement, snapshotted under the lock, writes the vote, then score, then
   * reputation.
   */
  async vote(user: User, body: VoteBody): Promise<VoteResult> {
    // A paste is named by its ref: one the voter may not read is not found, nor is a reply on it.
    let target: VoteTarget;
    if (body.threadId !== undefined) {
      const paste = await resolvePaste(this.dataSource, body.threadId, user.id);
      // Nobody but its author sees a burning paste before it is gone: nothing to judge it by.
      if (paste.burnAfterReading) throw new ForbiddenException(OWN_POSTS_MESSAGES.burnNoVotes);
      target = { kind: 'paste', id: paste.id };
    } else {
      await resolveReplyPaste(this.dataSource, body.replyId!, user.id);
      target = { kind: 'reply', id: body.replyId! };
    }
    let pasteId = 0;
    let moved: ReputationChange | null = null;
    // Votes, replies and pastes of one author race for their rows: a deadlock's victim runs again.
    const result = await retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        moved = null; // what a rolled-back attempt set does not count
        const locked = await lockVoteTarget(manager, target);
        pasteId = locked.pasteId;
        const cast = await castVote(manager, user.id, target, body.value);
        const voteScore = await moveScore(manager, target, cast.delta);
        const value = cast.removed ? null : body.value;
        moved = await this.reputation.voteChanged(manager, {
          voterId: user.id,
          authorId: locked.authorId,
          voteId: cast.voteId,
          previous: cast.previous,
          value,
          threadId: pasteId,
          replyId: target.kind === 'reply' ? target.id : null,
        });
        return { value, voteScore };
      }),
    );
    // The score is put into the cached pages that show it (the paste's page, its cards), in place. The
    // author's reputation shows on their profile, and on every page they wrote on once their rank changes.
    const score = { threadId: pasteId, replyId: target.kind === 'reply' ? target.id : null };
    const pages: Omit<PagesChanged, 'type'> = {
      scores: [{ ...score, voteScore: result.voteScore }],
      countsOnly: true,
    };
    const change = moved as ReputationChange | null;
    if (change && change.points !== 0) pages.profiles = [change.userId];
    const rankMoved = change !== null && rankChanges(change.reputation - change.points, change.points);
    await announcePagesChanged(this.events, rankMoved ? { all: true } : pages, this.logger, {
      type: PASTE_LIVE_EVENT.voteScore,
      threadId: pasteId,
      replyId: target.kind === 'reply' ? target.id : null,
      voteScore: result.voteScore,
    });
    return result;
  }

  /** A member's votes on a paste (`paste`) and on those of its replies they voted on. */
  async votesOf(userId: number, threadId: number, replyIds: number[]): Promise<ViewerVotes> {
    const rows = await queryPrepared(this.dataSource, VOTES_OF, [userId, threadId, replyIds]);
    const replies = new Map<number, 1 | -1>();
    let paste: 1 | -1 | null = null;
    for (const row of rows) {
      if (row.replyId === null) paste = row.value;
      else replies.set(row.replyId, row.value);
    }
    return { paste, replies };
  }

  /**
   * In the caller's transaction holding the member's row: takes back their votes' scores before the
   * account's cascade removes the votes. The targets are locked first, as a vote locks them.
   */
  async takeBackAllOf(manager: EntityManager, userId: number): Promise<void> {
    const voted: VotedRow[] = await manager.query(
      `SELECT ${VOTED_SELECT} FROM votes v WHERE v.user_id = $1`,
      [userId],
    );
    await this.scores.lock(manager, {
      pastes: voted.flatMap((v) => (v.pasteId === null ? [] : [v.pasteId])),
      replies: voted.flatMap((v) => (v.replyId === null ? [] : [v.replyId])),
    });
    const totals: Array<VotedRow & { total: number }> = await manager.query(
      `SELECT ${VOTED_SELECT}, sum(v.value)::int AS total FROM votes v WHERE v.user_id = $1
       GROUP BY v.thread_id, v.reply_id`,
      [userId],
    );
    const pastes = new Map<number, number>();
    const replies = new Map<number, number>();
    for (const row of totals) {
      if (row.pasteId !== null) pastes.set(row.pasteId, row.total);
      else if (row.replyId !== null) replies.set(row.replyId, row.total);
    }
    await this.scores.takeBack(manager, { pastes, replies });
  }
}
