import type { PasteRef } from '@termpaste/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Paste } from './entities/paste.entity.js';
import { Reply } from './entities/reply.entity.js';
import { type ReviewedRow, toReviewedPost } from './paste-rows.js';
import { aliveSql, readableSql, REF_COLUMNS, refOf, type RefRow, refWhere } from './visibility.js';

type Db = Pick<DataSource | EntityManager, 'query'>;

/*
 * Pastes and replies as the moderation module reads them (a member's flag, the review queue): the
 * threads module's tables, its SQL.
 */

const FLAGGED_PASTE_PROPERTIES = ['id', 'authorId', 'title', 'content'] as const;
const FLAGGED_PASTE_SELECT = selectColumns(Paste, 't', FLAGGED_PASTE_PROPERTIES);
type FlaggedPasteRow = Row<Paste, (typeof FLAGGED_PASTE_PROPERTIES)[number]> & RefRow;

/** A paste under review as a ReviewedRow (its own number as `pasteId`, no parent). */
const REVIEWED_PASTE_SELECT = `${selectColumns(Paste, 't', ['id', 'authorId', 'title', 'content', 'language', 'createdAt'])},
  t.id AS "pasteId", NULL::int AS "parentId"`;
/** A reply under review as a ReviewedRow (its paste's title, no language). */
const REVIEWED_REPLY_SELECT = `${selectColumns(Reply, 'r', ['id', 'authorId', 'pasteId', 'parentId', 'content', 'createdAt'])},
  t.title, NULL::text AS language`;

/** A post a member may flag: its author, the paste it is (or is on), and a label for notices. */
export interface FlaggablePost {
  authorId: number | null;
  threadId: number;
  /** The paste's title (a reply's: the title of the paste it is on). */
  title: string;
  content: string;
}

/**
 * The paste `ref` names (its number while public, else its key) when `viewerId` may read it (alive, not
 * hidden but to its author), else undefined: a member flags only what they can see. `ref` comes back
 * canonical, as the member's list of flags names it.
 */
export async function flaggablePaste(
  db: Db,
  ref: PasteRef,
  viewerId: number,
): Promise<(FlaggablePost & { ref: PasteRef }) | undefined> {
  const [row]: Array<FlaggedPasteRow> = await db.query(
    `SELECT ${FLAGGED_PASTE_SELECT}, ${REF_COLUMNS('t')} FROM threads t
       WHERE ${refWhere('t', ref, 1)} AND ${readableSql('t', '$2::int')}`,
    [ref, viewerId],
  );
  return (
    row && {
      authorId: row.authorId,
      threadId: row.id,
      title: row.title,
      content: row.content,
      ref: refOf(row.id, row),
    }
  );
}

/** The refs of pastes `ids` (their numbers while public, else their keys), for the ones that still exist. */
export async function pasteRefs(db: Db, ids: readonly number[]): Promise<Map<number, PasteRef>> {
  if (ids.length === 0) return new Map();
  const rows: Array<RefRow & { id: number }> = await db.query(
    `SELECT t.id, ${REF_COLUMNS('t')} FROM threads t WHERE t.id = ANY ($1::int[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, refOf(row.id, row)]));
}

/** Reply `id` when it is alive on a paste `viewerId` may read, else undefined. */
export async function flaggableReply(
  db: Db,
  id: number,
  viewerId: number,
): Promise<FlaggablePost | undefined> {
  const [row]: Array<Row<Reply, 'authorId' | 'pasteId' | 'content'> & Row<Paste, 'title'>> = await db.query(
    `SELECT r.author_id AS "authorId", r.thread_id AS "pasteId", t.title, r.content FROM replies r JOIN threads t ON t.id = r.thread_id
       WHERE r.id = $1 AND r.deleted_at IS NULL AND ${readableSql('t', '$2::int')}`,
    [id, viewerId],
  );
  return row && { authorId: row.authorId, threadId: row.pasteId, title: row.title, content: row.content };
}

/** A paste or a reply as staff see it in the review queue, whatever its visibility. */
export interface ReviewedPost {
  id: number;
  authorId: number | null;
  /** The paste's title (a reply's: its paste's). */
  title: string;
  content: string;
  language: string | null;
  /** The paste it is or is on; null once that paste is gone. */
  threadRef: PasteRef | null;
  threadId: number;
  parentId: number | null;
  createdAt: Date;
  /** Deleted (in the trash, or expired) since it was flagged. */
  gone: boolean;
  hidden: boolean;
}

/** Pastes `pasteIds` and replies `replyIds`, as the review queue shows them (absent: removed for good). */
export async function postsForReview(
  db: Db,
  pasteIds: readonly number[],
  replyIds: readonly number[],
): Promise<{ pastes: Map<number, ReviewedPost>; replies: Map<number, ReviewedPost> }> {
  const pastes = new Map<number, ReviewedPost>();
  const replies = new Map<number, ReviewedPost>();
  if (pasteIds.length > 0) {
    const rows: ReviewedRow[] = await db.query(
      `SELECT ${REVIEWED_PASTE_SELECT}, ${REF_COLUMNS('t')},
         (${aliveSql('t')}) AS alive, t.hidden_at IS NOT NULL AS hidden
       FROM threads t WHERE t.id = ANY ($1::int[])`,
      [pasteIds],
    );
    for (const row of rows) pastes.set(row.id, toReviewedPost(row));
  }
  if (replyIds.length > 0) {
    const rows: ReviewedRow[] = await db.query(
      `SELECT ${REVIEWED_REPLY_SELECT}, ${REF_COLUMNS('t')},
         (r.deleted_at IS NULL AND ${aliveSql('t')}) AS alive, r.hidden_at IS NOT NULL AS hidden
       FROM replies r JOIN threads t ON t.id = r.thread_id WHERE r.id = ANY ($1::int[])`,
      [replyIds],
    );
    for (const row of rows) replies.set(row.id, toReviewedPost(row));
  }
  return { pastes, replies };
}

/**
 * How many pastes and replies each of `authorIds` has, as staff count them in the review queue: every
 * post not deleted (nor expired), whatever its visibility, hidden pending review included. Their
 * profile's counters (users.thread_count, reply_count) count only what others can read.
 */
export async function authorPostCounts(
  db: Db,
  authorIds: readonly number[],
): Promise<Map<number, { pastes: number; replies: number }>> {
  const counts = new Map<number, { pastes: number; replies: number }>();
  if (authorIds.length === 0) return counts;
  const rows: Array<{ authorId: number; pastes: number; replies: number }> = await db.query(
    `SELECT a.id AS "authorId",
       (SELECT count(*)::int FROM threads t WHERE t.author_id = a.id AND ${aliveSql('t')}) AS pastes,
       (SELECT count(*)::int FROM replies r JOIN threads t ON t.id = r.thread_id
        WHERE r.author_id = a.id AND r.deleted_at IS NULL AND ${aliveSql('t')}) AS replies
     FROM unnest($1::int[]) AS a(id)`,
    [authorIds],
  );
  for (const row of rows) counts.set(row.authorId, { pastes: row.pastes, replies: row.replies });
  return counts;
}
