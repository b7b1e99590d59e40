import { Injectable, NotFoundException } from '@nestjs/common';
import {
  BOOKMARK_EXCERPT_CHARS,
  BOOKMARKS_PAGE_SIZE,
  type BookmarkEntry,
  type BookmarkKind,
  type BookmarksPage,
  POST_MESSAGES,
  type PublicAuthor,
  WATCHING_MESSAGES,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { createdMicros, keysetPage } from '../../common/keyset-cursor.js';
import { parseId } from '../../common/parse-id.js';
import { readablePasteJoin, replyJoin } from '../pastes/post-sql.js';
import { REF_COLUMNS, refOf, type RefRow, resolvePaste } from '../pastes/visibility.js';
import { resolveReadableReply } from '../pastes/watch-sql.js';
import { authorJoin, authorJson } from '../users/author-sql.js';

/** PostgreSQL's foreign_key_violation: the paste or reply went away meanwhile. */
const FOREIGN_KEY_VIOLATION = '23503';

type BookmarkRow = RefRow & {
  id: number;
  createdMicros: string;
  threadId: number | null;
  replyId: number | null;
  note: string | null;
  createdAt: Date;
  pasteId: number;
  title: string;
  language: string | null;
  pasteCreatedAt: Date;
  author: PublicAuthor | null;
  excerpt: string | null;
  replyAuthor: PublicAuthor | null;
  replyCreatedAt: Date | null;
};

/** `paste` or `reply`, else 404. */
export function bookmarkKind(raw: string): BookmarkKind {
  if (raw !== 'paste' && raw !== 'reply') throw new NotFoundException(WATCHING_MESSAGES.bookmarkKind);
  return raw;
}

/**
 * A member's bookmarks of pastes and replies, each with an optional note. Only what the member may read
 * can be bookmarked, and the list shows only what they may still read.
 */
@Injectable()
export class BookmarksService {
  constructor(private readonly dataSource: DataSource) {}

  /** The row's target: the paste's number, or the reply's id (after checking the member may read it). */
  private async target(userId: number, kind: BookmarkKind, raw: string): Promise<number> {
    if (kind === 'paste') return (await resolvePaste(this.dataSource, raw, userId)).id;
    const replyId = parseId(raw, POST_MESSAGES.replyNotFound);
    await resolveReadableReply(this.dataSource, replyId, userId);
    return replyId;
  }

  /** Bookmarks the paste or reply, or sets the note of its bookmark (its place in the list stays). */
  async put(userId: number, kind: BookmarkKind, raw: string, note: string | null): Promise<void> {
    const id = await this.target(userId, kind, raw);
    const column = kind === 'paste' ? 'thread_id' : 'reply_id';
    try {
      await this.dataSource.query(
        `INSERT INTO bookmarks (user_id, ${column}, note) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, ${column}) DO UPDATE SET note = EXCLUDED.note`,
        [userId, id, note],
      );
    } catch (error) {
      if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) {
        throw new NotFoundException(
          kind === 'paste' ? POST_MESSAGES.pasteNotFound : POST_MESSAGES.replyNotFound,
        );
      }
      throw error;
    }
  }

  async remove(userId: number, kind: BookmarkKind, raw: string): Promise<void> {
    const id = await this.target(userId, kind, raw);
    await this.dataSource.query(
      `DELETE FROM bookmarks WHERE user_id = $1 AND ${kind === 'paste' ? 'thread_id' : 'reply_id'} = $2`,
      [userId, id],
    );
  }

  /** Newest first; a bookmark of what the member may no longer read is left out (and its title unsaid). */
  async list(userId: number, cursor?: string): Promise<BookmarksPage> {
    const { rows, nextCursor } = await keysetPage<BookmarkRow>(
      (sql, params) => this.dataSource.query(sql, params),
      {
        alias: 'b',
        select: `b.id, ${createdMicros('b')} AS "createdMicros", b.thread_id AS "threadId",
          b.reply_id AS "replyId", b.note, b.created_at AS "createdAt",
          t.id AS "pasteId", ${REF_COLUMNS('t')}, t.title, t.language, t.created_at AS "pasteCreatedAt",
          ${authorJson('a')} AS author, left(r.content, ${BOOKMARK_EXCERPT_CHARS}) AS excerpt,
          ${authorJson('ra')} AS "replyAuthor", r.created_at AS "replyCreatedAt"`,
        from: `bookmarks b ${replyJoin('r', 'b.reply_id')}
          ${readablePasteJoin('t', 'COALESCE(b.thread_id, r.thread_id)', '$1::int')}
          ${authorJoin('a', 't.author_id')} ${authorJoin('ra', 'r.author_id')}`,
        where: `b.user_id = $1 AND t.id IS NOT NULL
          AND (b.reply_id IS NULL OR (r.id IS NOT NULL AND (r.hidden_at IS NULL OR r.author_id = $1)))`,
        params: [userId],
        pageSize: BOOKMARKS_PAGE_SIZE,
        cursor,
      },
    );
    return { bookmarks: rows.map(toEntry), nextCursor };
  }
}

function toEntry(row: BookmarkRow): BookmarkEntry {
  const ref = refOf(row.pasteId, row);
  return {
    id: row.id,
    kind: row.replyId === null ? 'paste' : 'reply',
    target: row.replyId ?? ref,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
    paste: {
      ref,
      title: row.title,
      language: row.language,
      author: row.author,
      createdAt: row.pasteCreatedAt.toISOString(),
    },
    reply:
      row.replyId === null
        ? null
        : {
            id: row.replyId,
            excerpt: row.excerpt ?? '',
            author: row.replyAuthor,
            createdAt: row.replyCreatedAt!.toISOString(),
          },
  };
}
