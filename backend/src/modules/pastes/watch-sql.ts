import { NotFoundException } from '@nestjs/common';
import { POST_MESSAGES } from '@termpaste/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { readableSql } from './visibility.js';

/*
 * What the watching module (above threads) reads of the threads module's tables: a tag by its name, a
 * reply the member may read, and the join of a watched tag.
 */

type Db = DataSource | EntityManager;

/** The id of the tag named `name` (as stored: lower-case), or undefined for none. */
export async function tagIdByName(db: Db, name: string): Promise<number | undefined> {
  const [row]: Array<{ id: number }> = await db.query('SELECT id FROM tags WHERE name = $1', [name]);
  return row?.id;
}

/** Joins the tag `column` names as `alias`. */
export const tagJoin = (alias: string, column: string) => `JOIN tags ${alias} ON ${alias}.id = ${column}`;

/**
 * The paste of reply `replyId` when `viewerId` may read the reply: 404 'Reply not found' for no such
 * reply (deleted, or hidden pending review from all but its author), 404 'Thread not found' for a reply
 * on a paste the viewer may not read.
 */
export async function resolveReadableReply(
  db: Db,
  replyId: number,
  viewerId: number,
): Promise<{ threadId: number }> {
  const [row]: Array<{ threadId: number; readable: boolean }> = await db.query(
    `SELECT r.thread_id AS "threadId", (${readableSql('t', '$2::int')}) AS readable
     FROM replies r JOIN threads t ON t.id = r.thread_id
     WHERE r.id = $1 AND r.deleted_at IS NULL AND (r.hidden_at IS NULL OR r.author_id = $2)`,
    [replyId, viewerId],
  );
  if (!row) throw new NotFoundException(POST_MESSAGES.replyNotFound);
  if (!row.readable) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
  return { threadId: row.threadId };
}
