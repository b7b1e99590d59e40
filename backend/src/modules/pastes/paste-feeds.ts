import { Injectable, NotFoundException } from '@nestjs/common';
import {
  FEED_ENTRIES_MAX,
  FEED_MESSAGES,
  type PasteRef,
  type PublicAuthor,
  TAG_MESSAGES,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { authorJoin, authorJson } from '../users/author-sql.js';
import { publicProfile } from '../users/user-profiles.js';
import { excerptOf, type FeedEntry } from './atom.js';
import { Paste } from './entities/paste.entity.js';
import { Tag } from './entities/tag.entity.js';
import { SearchService } from './search.service.js';
import { listedSql, readableSql, refWhere } from './visibility.js';

const ENTRY_COLUMNS = ['id', 'title', 'createdAt', 'editedAt', 'expiresAt', 'tags'] as const;
const ENTRY_SELECT = `${selectColumns(Paste, 't', ENTRY_COLUMNS)},
  left(t.content, 1000) AS excerpt, ${authorJson('a')} AS author`;
const ENTRY_FROM = `threads t ${authorJoin('a', 't.author_id')}`;

type EntryRow = Row<Paste, (typeof ENTRY_COLUMNS)[number]> & { excerpt: string; author: PublicAuthor | null };

const toEntry = (row: EntryRow): FeedEntry => ({
  id: row.id,
  title: row.title,
  createdAt: row.createdAt.toISOString(),
  editedAt: row.editedAt?.toISOString() ?? null,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  excerpt: excerptOf(row.excerpt),
  tags: row.tags,
  author: row.author ? { id: row.author.id, username: row.author.username } : null,
});

const EMBED_COLUMNS = ['id', 'key', 'visibility', 'title', 'content', 'language'] as const;
const EMBED_SELECT = `${selectColumns(Paste, 't', EMBED_COLUMNS)}, ${authorJson('a')} AS author`;

export type EmbeddablePaste = Row<Paste, (typeof EMBED_COLUMNS)[number]> & { author: PublicAuthor | null };

/**
 * What the Atom feeds and the embeds read: listed pastes only in a feed (one query each, on the indexes
 * the lists use), and for an embed a paste a visitor may read by its link that does not burn.
 */
@Injectable()
export class PasteFeeds {
  constructor(
    private readonly dataSource: DataSource,
    private readonly searching: SearchService,
  ) {}

  /** The newest listed pastes (pinned ones in their place: a feed has no top). */
  async recent(): Promise<FeedEntry[]> {
    const rows: EntryRow[] = await this.dataSource.query(
      `SELECT ${ENTRY_SELECT} FROM ${ENTRY_FROM} WHERE ${listedSql('t')}
       ORDER BY t.created_at DESC, t.id DESC LIMIT $1`,
      [FEED_ENTRIES_MAX],
    );
    return rows.map(toEntry);
  }

  /** The newest listed pastes carrying tag `name`; 404 (TAG_MESSAGES.tagNotFound) for no such tag. */
  async tagged(name: string): Promise<FeedEntry[]> {
    const [tag]: Array<Row<Tag, 'id'>> = await this.dataSource.query('SELECT id FROM tags WHERE name = $1', [
      name,
    ]);
    if (!tag) throw new NotFoundException(TAG_MESSAGES.tagNotFound);
    const rows: EntryRow[] = await this.dataSource.query(
      `SELECT ${ENTRY_SELECT} FROM paste_tags pt JOIN ${ENTRY_FROM} ON t.id = pt.thread_id
       WHERE pt.tag_id = $1 AND ${listedSql('t')}
       ORDER BY pt.created_at DESC, pt.thread_id DESC LIMIT $2`,
      [tag.id, FEED_ENTRIES_MAX],
    );
    return rows.map(toEntry);
  }

  /** Member `userId`'s newest listed pastes, and their name; 404 for no such member. */
  async byAuthor(userId: number): Promise<{ username: string; entries: FeedEntry[] }> {
    const user = await publicProfile(this.dataSource, userId);
    if (!user) throw new NotFoundException(FEED_MESSAGES.userNotFound);
    const rows: EntryRow[] = await this.dataSource.query(
      `SELECT ${ENTRY_SELECT} FROM ${ENTRY_FROM} WHERE t.author_id = $1 AND ${listedSql('t')}
       ORDER BY t.created_at DESC, t.id DESC LIMIT $2`,
      [userId, FEED_ENTRIES_MAX],
    );
    return { username: user.username, entries: rows.map(toEntry) };
  }

  /** The first page of the search's results (what /search shows), newest first. */
  async search(query: string): Promise<FeedEntry[]> {
    const results = await this.searching.search(query, 1);
    const ids = results.threads.map((card) => card.id).filter((id): id is number => typeof id === 'number');
    if (ids.length === 0) return [];
    const rows: EntryRow[] = await this.dataSource.query(
      `SELECT ${ENTRY_SELECT} FROM ${ENTRY_FROM} WHERE t.id = ANY ($1::int[]) AND ${listedSql('t')}
       ORDER BY t.created_at DESC, t.id DESC LIMIT $2`,
      [ids, FEED_ENTRIES_MAX],
    );
    return rows.map(toEntry);
  }

  /**
   * The paste `ref` names if it can be embedded: one a visitor may read by its link (public, or unlisted
   * by its key; alive, not hidden) that does not burn after reading. Else null.
   */
  async embeddable(ref: PasteRef): Promise<EmbeddablePaste | null> {
    const [row]: EmbeddablePaste[] = await this.dataSource.query(
      `SELECT ${EMBED_SELECT} FROM ${ENTRY_FROM}
       WHERE ${refWhere('t', ref, 1)} AND ${readableSql('t', 'NULL::int')}
         AND t.visibility IN ('public', 'unlisted') AND NOT t.burn_after_reading`,
      [ref],
    );
    return row ?? null;
  }
}
