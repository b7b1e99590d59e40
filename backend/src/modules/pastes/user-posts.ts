import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { Row } from '../../infra/database/columns.js';
import type { Paste } from './entities/paste.entity.js';
import type { Reply } from './entities/reply.entity.js';
import { UsersService } from '../users/users.service.js';
import { PASTE_STATS_SLOT } from './pastes.service.js';
import { aliveSql } from './visibility.js';
import { takeLock } from '../../infra/database/lock-order.js';

type Db = Pick<DataSource | EntityManager, 'query'>;

/** A paste as a member's data export holds it: every column but the search vector, with its versions. */
export async function pastesForExport(db: Db, userId: number): Promise<unknown[]> {
  const rows: Array<{ paste: unknown }> = await db.query(
    `SELECT (to_jsonb(t) - 'search' - 'listed') || jsonb_build_object('versions', coalesce((
              SELECT jsonb_agg(to_jsonb(v) ORDER BY v.n) FROM thread_revisions v WHERE v.thread_id = t.id), '[]'::jsonb)
            ) AS paste
     FROM threads t WHERE t.author_id = $1 AND ${aliveSql('t')} ORDER BY t.id`,
    [userId],
  );
  return rows.map((row) => row.paste);
}

/** The file of a member's data export that holds their replies. */
export const REPLIES_FILE = 'replies.json';

/** The member's replies (on pastes still alive), with their versions. */
export async function repliesForExport(db: Db, userId: number): Promise<unknown[]> {
  const rows: Array<{ reply: unknown }> = await db.query(
    // anchor_hash is internal: a digest of the commented lines of a paste that may be someone else's.
    `SELECT (to_jsonb(r) - 'anchor_hash') || jsonb_build_object('versions', coalesce((
              SELECT jsonb_agg(to_jsonb(v) ORDER BY v.n) FROM reply_revisions v WHERE v.reply_id = r.id), '[]'::jsonb)
            ) AS reply
     FROM replies r JOIN threads t ON t.id = r.thread_id
     WHERE r.author_id = $1 AND r.deleted_at IS NULL AND ${aliveSql('t')} ORDER BY r.id`,
    [userId],
  );
  return rows.map((row) => row.reply);
}

/** The pastes a deletion removes, of member $1: with `keepContent`, the private ones and the trash. */
const removedPastes = (keepContent: boolean) =>
  keepContent ? `author_id = $1 AND (visibility = 'private' OR deleted_at IS NOT NULL)` : 'author_id = $1';

/**
 * A leaving member's posts, in the account deletion's transaction. Deleting: pastes and replies go, but a
 * reply with others' replies under it stays as a placeholder. Keeping: they lose their author
 * (Anonymous). Private pastes and the trash go either way; every counter they fed is lowered.
 */
@Injectable()
export class UserPostsService {
  constructor(private readonly users: UsersService) {}

  /**
   * Locks the pastes `remove` removes, first in the deletion (they come before the replies and the
   * members' rows it locks: lock-order.ts).
   */
  async lock(manager: EntityManager, userId: number, keepContent: boolean): Promise<void> {
    takeLock(manager, 'paste');
    const pastes: Array<{ id: number }> = await manager.query(
      `SELECT id FROM threads WHERE ${removedPastes(keepContent)} ORDER BY id FOR UPDATE`,
      [userId],
    );
    takeLock(
      manager,
      'paste',
      pastes.map((paste) => paste.id),
    );
  }

  /** Returns the ids of the pastes removed or changed (for the page cache). */
  async remove(manager: EntityManager, userId: number, keepContent: boolean): Promise<number[]> {
    const touched = await this.removePastes(manager, removedPastes(keepContent), [userId]);
    if (!keepContent) touched.push(...(await this.removeReplies(manager, userId)));
    return [...new Set(touched)];
  }

  private async removePastes(manager: EntityManager, where: string, params: unknown[]): Promise<number[]> {
    const pastes: Array<Row<Paste, 'id' | 'listed'>> = await manager.query(
      `SELECT id, listed FROM threads WHERE ${where} ORDER BY id FOR UPDATE`,
      params,
    );
    if (pastes.length === 0) return [];
    const ids = pastes.map((paste) => paste.id);
    // Locked already (lock), unless new since: then out of order.
    takeLock(manager, 'paste', ids);
    // Other members' replies under them go too: their counts go down with them.
    await this.lowerReplyCounts(
      manager,
      'SELECT author_id FROM replies WHERE thread_id = ANY($1::int[]) AND deleted_at IS NULL',
      [ids],
    );
    // Forks are counted when a page is read: their originals' counts need no write.
    await manager.query('DELETE FROM threads WHERE id = ANY($1::int[])', [ids]);
    const listed = pastes.filter((paste) => paste.listed).length;
    if (listed > 0) {
      await manager.query(
        `UPDATE forum_stats SET thread_count = GREATEST(thread_count - $1, 0) WHERE slot = ${PASTE_STATS_SLOT}`,
        [listed],
      );
    }
    return ids;
  }

  /**
   * The member's replies on other members' pastes: leaves first, again and again, so a reply whose whole
   * subtree is theirs goes whole; what stays has someone else's reply under it and becomes a placeholder.
   */
  private async removeReplies(manager: EntityManager, userId: number): Promise<number[]> {
    const perPaste = new Map<number, number>();
    for (;;) {
      const gone: Array<Row<Reply, 'pasteId'>> = await manager.query(
        `WITH gone AS (DELETE FROM replies r WHERE r.author_id = $1
           AND NOT EXISTS (SELECT 1 FROM replies c WHERE c.parent_id = r.id) RETURNING r.thread_id)
         SELECT thread_id AS "pasteId" FROM gone`,
        [userId],
      );
      if (gone.length === 0) break;
      for (const { pasteId: paste } of gone) perPaste.set(paste, (perPaste.get(paste) ?? 0) + 1);
    }
    const kept: Array<Row<Reply, 'id' | 'pasteId'>> = await manager.query(
      `WITH kept AS (UPDATE replies SET deleted_at = coalesce(deleted_at, now()), deleted_by = NULL, content = ''
         WHERE author_id = $1 RETURNING id, thread_id)
       SELECT id, thread_id AS "pasteId" FROM kept`,
      [userId],
    );
    if (kept.length > 0) {
      await manager.query('DELETE FROM reply_revisions WHERE reply_id = ANY($1::int[])', [
        kept.map((reply) => reply.id),
      ]);
    }
    for (const [paste, removed] of perPaste) {
      await manager.query(
        `UPDATE threads t SET reply_count = GREATEST(t.reply_count - $2, 0),
           last_reply_at = last.created_at, last_reply_author_id = last.author_id
         FROM (SELECT NULL) AS nothing
         LEFT JOIN LATERAL (SELECT created_at, author_id FROM replies WHERE thread_id = $1
                            ORDER BY created_at DESC, id DESC LIMIT 1) last ON true
         WHERE t.id = $1`,
        [paste, removed],
      );
    }
    return [...perPaste.keys(), ...kept.map((reply) => reply.pasteId)];
  }

  /** Lowers each author's reply count by their replies among `authorsSql`'s rows. */
  private async lowerReplyCounts(
    manager: EntityManager,
    authorsSql: string,
    params: unknown[],
  ): Promise<void> {
    const counts: Array<{ authorId: number | null; n: number }> = await manager.query(
      `SELECT author_id AS "authorId", count(*)::int AS n FROM (${authorsSql}) x GROUP BY author_id`,
      params,
    );
    for (const { authorId, n } of counts) {
      if (authorId !== null) await this.users.moveCounts(manager, authorId, { replies: -n });
    }
  }
}
