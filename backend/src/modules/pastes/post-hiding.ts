import { Injectable, Logger } from '@nestjs/common';
import { PASTE_LIVE_EVENT } from '@termpaste/contracts';
import type { EntityManager } from 'typeorm';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { UsersService } from '../users/users.service.js';
import type { Row } from '../../infra/database/columns.js';
import type { Paste } from './entities/paste.entity.js';
import type { Reply } from './entities/reply.entity.js';
import { PASTE_STATS_SLOT } from './pastes.service.js';
import { takeLock } from '../../infra/database/lock-order.js';

/** What hiding or showing a post changed, for `announce` once the transaction has committed. */
export interface HidingChange {
  kind: 'paste' | 'reply';
  /** The paste it is, or is on. */
  threadId: number;
  replyId?: number;
  authorId: number | null;
  hidden: boolean;
  /** The paste entered or left the lists. */
  listedMoved: boolean;
}

/**
 * Hiding a post pending review, and showing it again (the moderation module's way to these rows). A
 * hidden paste is not `listed`, so it leaves the lists and counts; only its author reads it by link. A
 * hidden reply shows others a placeholder.
 */
@Injectable()
export class PostHidingService {
  private readonly logger = new Logger('PostHiding');

  constructor(
    private readonly users: UsersService,
    private readonly events: EventsPort,
  ) {}

  /**
   * Hides (`hidden`) or shows paste `threadId` in `manager`'s transaction; null when it is not alive
   * (missing, deleted) or already so.
   */
  async setPasteHidden(
    manager: EntityManager,
    threadId: number,
    hidden: boolean,
  ): Promise<HidingChange | null> {
    takeLock(manager, 'paste', [threadId]);
    // An UPDATE answers [rows, count] through TypeORM.
    const [[row]]: [Array<Row<Paste, 'authorId' | 'listed'> & { wasListed: boolean }>, number] =
      await manager.query(
        `WITH old AS (SELECT id, listed FROM threads WHERE id = $1 AND deleted_at IS NULL FOR UPDATE)
       UPDATE threads t SET hidden_at = ${hidden ? 'now()' : 'NULL'} FROM old
       WHERE t.id = old.id AND (t.hidden_at IS NULL) = $2
       RETURNING t.author_id AS "authorId", old.listed AS "wasListed", t.listed`,
        [threadId, hidden],
      );
    if (!row) return null;
    const counted = Number(row.listed) - Number(row.wasListed);
    if (counted !== 0) {
      if (row.authorId !== null) await this.users.moveCounts(manager, row.authorId, { pastes: counted });
      await manager.query(
        `UPDATE forum_stats SET thread_count = thread_count + $1 WHERE slot = ${PASTE_STATS_SLOT}`,
        [counted],
      );
    }
    return { kind: 'paste', threadId, authorId: row.authorId, hidden, listedMoved: counted !== 0 };
  }

  /** Hides or shows reply `replyId` in `manager`'s transaction; null when it is not alive or already so. */
  async setReplyHidden(
    manager: EntityManager,
    replyId: number,
    hidden: boolean,
  ): Promise<HidingChange | null> {
    const [[row]]: [Array<Row<Reply, 'pasteId' | 'authorId'>>, number] = await manager.query(
      `UPDATE replies SET hidden_at = ${hidden ? 'now()' : 'NULL'}
       WHERE id = $1 AND deleted_at IS NULL AND (hidden_at IS NULL) = $2
       RETURNING thread_id AS "pasteId", author_id AS "authorId"`,
      [replyId, hidden],
    );
    if (!row) return null;
    return {
      kind: 'reply',
      threadId: row.pasteId,
      replyId,
      authorId: row.authorId,
      hidden,
      listedMoved: false,
    };
  }

  /**
   * After the commit: the pages that showed the post are stale on every instance; a paste hidden is
   * gone for the live sockets that watch it (but its author's), one shown again enters the lists.
   */
  async announce(change: HidingChange): Promise<void> {
    const profiles = change.authorId !== null ? { profiles: [change.authorId] } : {};
    if (change.kind === 'reply') {
      await announcePagesChanged(this.events, { threads: [change.threadId] }, this.logger);
      return;
    }
    await announcePagesChanged(
      this.events,
      { lists: true, threads: [change.threadId], ...profiles },
      this.logger,
      !change.hidden && change.listedMoved
        ? { type: PASTE_LIVE_EVENT.pasteAdded, threadId: change.threadId }
        : undefined,
    );
    if (change.hidden) {
      await this.events
        .broadcast({ type: 'paste_hidden', threadId: change.threadId, authorId: change.authorId })
        .catch((error: unknown) => {
          this.logger.warn(
            `Live sockets not told of a hidden paste: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
    }
  }
}
