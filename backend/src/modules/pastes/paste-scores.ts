import { Injectable, NotFoundException } from '@nestjs/common';
import { FORUM_MESSAGES } from '@termpaste/contracts';
import type { EntityManager } from 'typeorm';
import { prepare, queryPrepared } from '../../infra/database/prepared.js';
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
const LOCK_PASTE = prepare(
  'vote-lock-paste',
  `SELECT t.id AS paste_id, t.author_id FROM threads t WHERE t.id = $1 AND ${aliveSql('t')} FOR UPDATE`,
);
const LOCK_REPLYS_PASTE = prepare(
  'vote-lock-replys-paste',
  'SELECT 1 FROM threads WHERE id = (SELECT thread_id FROM replies WHERE id = $1) FOR KEY SHARE',
);
const LOCK_REPLY = prepare(
  'vote-lock-reply',
  `SELECT r.thread_id AS paste_id, r.author_id FROM replies r
   WHERE r.id = $1 AND r.deleted_at IS NULL
     AND EXISTS (SELECT 1 FROM threads t WHERE t.id = r.thread_id AND ${aliveSql('t')})
   FOR UPDATE OF r`,
);
const MOVE_PASTE = prepare(
  'vote-move-paste',
  'UPDATE threads SET vote_score = vote_score + $2 WHERE id = $1 RETURNING vote_score',
);
const MOVE_REPLY = prepare(
  'vote-move-reply',
  'UPDATE replies SET vote_score = vote_score + $2 WHERE id = $1 RETURNING vote_score',
);

/**
 * The scores of pastes and replies (`vote_score`, the threads module's columns), for the votes module:
 * each call runs in the caller's transaction. Kept on write: a vote locks its target, then moves its
 * score by what the vote changed.
 */
@Injectable()
export class PasteScores {
  /**
   * Locks what a vote is on (FOR UPDATE: one member's concurrent votes on it wait in turn), and answers
   * its paste and author; 404 when it does not exist.
   */
  async lockTarget(
    manager: EntityManager,
    target: VoteTarget,
  ): Promise<{ pasteId: number; authorId: number | null }> {
    if (target.kind === 'reply') await queryPrepared(manager, LOCK_REPLYS_PASTE, [target.id]);
    const [row] = await queryPrepared<{ paste_id: number; author_id: number | null }>(
      manager,
      target.kind === 'paste' ? LOCK_PASTE : LOCK_REPLY,
      [target.id],
    );
    if (!row) {
      throw new NotFoundException(
        target.kind === 'paste' ? FORUM_MESSAGES.threadNotFound : FORUM_MESSAGES.replyNotFound,
      );
    }
    return { pasteId: row.paste_id, authorId: row.author_id };
  }

  /** Moves a locked target's score by `delta`; answers the score now. */
  async move(manager: EntityManager, target: VoteTarget, delta: number): Promise<number> {
    const [row] = await queryPrepared<{ vote_score: number }>(
      manager,
      target.kind === 'paste' ? MOVE_PASTE : MOVE_REPLY,
      [target.id, delta],
    );
    return row!.vote_score;
  }

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
