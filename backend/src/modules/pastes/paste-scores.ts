import { Injectable, NotFoundException } from '@nestjs/common';
import { POST_MESSAGES } from '@termpaste/contracts';
import type { EntityManager } from 'typeorm';
import { type Row } from '../../infra/database/columns.js';
import { locking, takeLock } from '../../infra/database/lock-order.js';
import { prepare, queryPrepared } from '../../infra/database/prepared.js';
import type { Paste } from './entities/paste.entity.js';
import { aliveSql } from './visibility.js';

/** What a vote is on: a paste, or a reply. */
export type VoteTarget = { kind: 'paste'; id: number } | { kind: 'reply'; id: number };

/** The scores to take back, by target id (the sum of a member's votes on each). */
export interface ScoreTakeBack {
  pastes: ReadonlyMap<number, number>;
  replies: ReadonlyMap<number, number>;
}

// A deleted paste or reply (or one under a paste not alive) takes no votes: 404.
// A reply's paste is locked (shared) before the reply, as a deletion takes them (paste, authors,
// replies), so a vote and a deletion cannot deadlock over the author's row.
// A paste gone from readers (expired at this instant) takes no vote, nor do its replies.
type LockedTarget = { pasteId: number } & Row<Paste, 'authorId'>;
const LOCK_PASTE = prepare<LockedTarget, [pasteId: number]>(
  'vote-lock-paste',
  locking(
    `SELECT t.id AS "pasteId", t.author_id AS "authorId" FROM threads t
     WHERE t.id = $1 AND ${aliveSql('t')} FOR UPDATE`,
    'paste',
  ),
);
const LOCK_REPLYS_PASTE = prepare<unknown, [replyId: number]>(
  'vote-lock-replys-paste',
  locking(
    'SELECT 1 FROM threads WHERE id = (SELECT thread_id FROM replies WHERE id = $1) FOR KEY SHARE',
    'paste',
  ),
);
const LOCK_REPLY = prepare<LockedTarget, [replyId: number]>(
  'vote-lock-reply',
  locking(
    `SELECT r.thread_id AS "pasteId", r.author_id AS "authorId" FROM replies r
     WHERE r.id = $1 AND r.deleted_at IS NULL
       AND EXISTS (SELECT 1 FROM threads t WHERE t.id = r.thread_id AND ${aliveSql('t')})
     FOR UPDATE OF r`,
    'reply',
  ),
);
type MovedScore = Row<Paste, 'voteScore'>;
const MOVE_PASTE = prepare<MovedScore, [pasteId: number, delta: number]>(
  'vote-move-paste',
  'UPDATE threads SET vote_score = vote_score + $2 WHERE id = $1 RETURNING vote_score AS "voteScore"',
);
const MOVE_REPLY = prepare<MovedScore, [replyId: number, delta: number]>(
  'vote-move-reply',
  'UPDATE replies SET vote_score = vote_score + $2 WHERE id = $1 RETURNING vote_score AS "voteScore"',
);

/**
 * Locks what a vote is on (FOR UPDATE: one member's concurrent votes on it wait in turn), in the caller's
 * transaction, and answers its paste and author; 404 when it does not exist.
 */
export async function lockVoteTarget(manager: EntityManager, target: VoteTarget): Promise<LockedTarget> {
  if (target.kind === 'reply') await queryPrepared(manager, LOCK_REPLYS_PASTE, [target.id]);
  const [row] = await queryPrepared(manager, target.kind === 'paste' ? LOCK_PASTE : LOCK_REPLY, [target.id]);
  if (!row) {
    throw new NotFoundException(
      target.kind === 'paste' ? POST_MESSAGES.pasteNotFound : POST_MESSAGES.replyNotFound,
    );
  }
  return row;
}

/** Moves a locked target's score by `delta`, in the caller's transaction; answers the score now. */
export async function moveScore(manager: EntityManager, target: VoteTarget, delta: number): Promise<number> {
  const [row] = await queryPrepared(manager, target.kind === 'paste' ? MOVE_PASTE : MOVE_REPLY, [
    target.id,
    delta,
  ]);
  return row!.voteScore;
}

/**
 * The scores of pastes and replies (`vote_score`, the threads module's columns), for the votes module:
 * each call runs in the caller's transaction. Kept on write: a vote locks its target, then moves its
 * score by what the vote changed.
 */
@Injectable()
export class PasteScores {
  /**
   * Locks pastes, then replies, each in id order, as votes lock them (a member's votes, before their
   * scores are taken back), so this cannot deadlock with a vote.
   */
  async lock(
    manager: EntityManager,
    ids: { pastes: readonly number[]; replies: readonly number[] },
  ): Promise<void> {
    for (const [table, some] of [
      ['threads', ids.pastes],
      ['replies', ids.replies],
    ] as const) {
      if (some.length === 0) continue;
      takeLock(manager, table === 'threads' ? 'paste' : 'reply', some);
      await manager.query(`SELECT id FROM ${table} WHERE id = ANY ($1::int[]) ORDER BY id FOR UPDATE`, [
        [...some],
      ]);
    }
  }

  /** Takes scores back from locked pastes and replies (PasteScores.lock). */
  async takeBack(manager: EntityManager, scores: ScoreTakeBack): Promise<void> {
    for (const [table, totals] of [
      ['threads', scores.pastes],
      ['replies', scores.replies],
    ] as const) {
      if (totals.size === 0) continue;
      await manager.query(
        `UPDATE ${table} t SET vote_score = t.vote_score - v.total
         FROM unnest($1::int[], $2::int[]) AS v (id, total) WHERE t.id = v.id`,
        [[...totals.keys()], [...totals.values()]],
      );
    }
  }
}
