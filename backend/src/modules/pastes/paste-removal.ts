import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Row } from '../../infra/database/columns.js';
import type { Paste } from './entities/paste.entity.js';
import { UsersService } from '../users/users.service.js';
import { PASTE_STATS_SLOT } from './paste-stats.js';
import { takeLock } from '../../infra/database/lock-order.js';

/** What a removal took away: the paste's author, and whether lists showed it. */
export type RemovedPaste = Row<Paste, 'id' | 'authorId' | 'listed'>;

/**
 * Removes a paste for good (expired, or burnt) with its replies, votes and versions, in the caller's
 * transaction, the paste locked; the counts it fed go down, earned reputation stays. A paste in the
 * trash is left to the trash's job (its counts already went down).
 */
@Injectable()
export class PasteRemoval {
  constructor(private readonly users: UsersService) {}

  /** Removes the paste `id` when `condition` (SQL over `t`) holds; null when there was none to remove. */
  async remove(manager: EntityManager, id: number, condition = 'true'): Promise<RemovedPaste | null> {
    takeLock(manager, 'paste', [id]);
    const [paste]: Array<Row<Paste, 'authorId' | 'listed'>> = await manager.query(
      `SELECT t.author_id AS "authorId", t.listed FROM threads t
       WHERE t.id = $1 AND t.deleted_at IS NULL AND ${condition} FOR UPDATE`,
      [id],
    );
    if (!paste) return null;
    const replies: Array<{ authorId: number; n: number }> = await manager.query(
      `SELECT author_id AS "authorId", count(*)::int AS n FROM replies
       WHERE thread_id = $1 AND author_id IS NOT NULL AND deleted_at IS NULL GROUP BY author_id ORDER BY author_id`,
      [id],
    );
    for (const { authorId, n } of replies) {
      await this.users.moveCounts(manager, authorId, { replies: -n });
    }
    if (paste.listed && paste.authorId !== null) {
      await this.users.moveCounts(manager, paste.authorId, { pastes: -1 });
    }
    await manager.query('DELETE FROM threads WHERE id = $1', [id]);
    if (paste.listed) {
      await manager.query(
        `UPDATE forum_stats SET thread_count = thread_count - 1 WHERE slot = ${PASTE_STATS_SLOT}`,
      );
    }
    return { id, authorId: paste.authorId, listed: paste.listed };
  }
}
