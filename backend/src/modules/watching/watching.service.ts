import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import {
  type FollowState,
  type PublicAuthor,
  type PasteWatchState,
  type TagWatchState,
  WATCHING_LIST_MAX,
  WATCHING_MESSAGES,
  type WatchingList,
  type WatchSettings,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { parseId } from '../../common/parse-id.js';
import { readablePasteJoin, replyJoin } from '../pastes/post-sql.js';
import { REF_COLUMNS, refOf, type RefRow, resolvePaste } from '../pastes/visibility.js';
import { tagIdByName, tagJoin } from '../pastes/watch-sql.js';
import { authorJoin, authorJson } from '../users/author-sql.js';
import { UsersService } from '../users/users.service.js';

/** PostgreSQL's foreign_key_violation: the paste went away meanwhile. */
const FOREIGN_KEY_VIOLATION = '23503';

/** A tag's `{name}` as stored (trimmed, lower-case). */
const tagName = (raw: string) => raw.trim().toLowerCase();

/**
 * Watching pastes and tags, following members, and the auto-watch setting. A member watches only what
 * they may read: a paste they may not read is a 404, as on every paste route.
 */
@Injectable()
export class WatchingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
  ) {}

  /** Watches (`watching`) or stops watching a paste; an explicit stop keeps its row so it sticks. */
  async setPasteWatch(userId: number, raw: string, watching: boolean): Promise<void> {
    const paste = await resolvePaste(this.dataSource, raw, userId);
    await this.dataSource.query(
      `INSERT INTO paste_watches (user_id, thread_id, watching) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, thread_id) DO UPDATE SET watching = EXCLUDED.watching,
         created_at = CASE WHEN paste_watches.watching = EXCLUDED.watching
                      THEN paste_watches.created_at ELSE now() END`,
      [userId, paste.id, watching],
    );
  }

  /** The member's watch and bookmarks on a paste's page: one statement. */
  async pasteState(userId: number, raw: string): Promise<PasteWatchState> {
    const paste = await resolvePaste(this.dataSource, raw, userId);
    const [row]: Array<{ watching: boolean; paste: { note: string | null } | null; replies: unknown }> =
      await this.dataSource.query(
        `SELECT COALESCE((SELECT w.watching FROM paste_watches w WHERE w.user_id = $1 AND w.thread_id = $2),
                  false) AS watching,
           (SELECT json_build_object('note', b.note) FROM bookmarks b
            WHERE b.user_id = $1 AND b.thread_id = $2) AS paste,
           COALESCE((SELECT json_agg(json_build_object('replyId', b.reply_id, 'note', b.note) ORDER BY b.reply_id)
             FROM bookmarks b ${replyJoin('r', 'b.reply_id')}
             WHERE b.user_id = $1 AND b.reply_id IS NOT NULL AND r.thread_id = $2), '[]') AS replies`,
        [userId, paste.id],
      );
    return {
      watching: row!.watching,
      pasteBookmark: row!.paste ? row!.paste.note : false,
      replyBookmarks: row!.replies as PasteWatchState['replyBookmarks'],
    };
  }

  /** The member `raw` names, or 404. */
  private async member(raw: string): Promise<number> {
    const id = parseId(raw, WATCHING_MESSAGES.userNotFound);
    if (!(await this.users.findById(id))) throw new NotFoundException(WATCHING_MESSAGES.userNotFound);
    return id;
  }

  async follow(userId: number, raw: string): Promise<void> {
    const id = parseId(raw, WATCHING_MESSAGES.userNotFound);
    if (id === userId) throw new BadRequestException(WATCHING_MESSAGES.followSelf);
    await this.member(raw);
    try {
      await this.dataSource.query(
        'INSERT INTO member_follows (user_id, member_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [userId, id],
      );
    } catch (error) {
      // Their account was deleted meanwhile.
      if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) {
        throw new NotFoundException(WATCHING_MESSAGES.userNotFound);
      }
      throw error;
    }
  }

  async unfollow(userId: number, raw: string): Promise<void> {
    const id = await this.member(raw);
    await this.dataSource.query('DELETE FROM member_follows WHERE user_id = $1 AND member_id = $2', [
      userId,
      id,
    ]);
  }

  async followState(userId: number, raw: string): Promise<FollowState> {
    const id = await this.member(raw);
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM member_follows WHERE user_id = $1 AND member_id = $2',
      [userId, id],
    );
    return { following: rows.length > 0 };
  }

  /** The tag `raw` names, or 404 'Tag not found'. */
  private async tag(raw: string): Promise<number> {
    const id = await tagIdByName(this.dataSource, tagName(raw));
    if (id === undefined) throw new NotFoundException(WATCHING_MESSAGES.tagNotFound);
    return id;
  }

  async setTagWatch(userId: number, raw: string, watching: boolean): Promise<void> {
    const tagId = await this.tag(raw);
    try {
      await this.dataSource.query(
        watching
          ? 'INSERT INTO tag_watches (user_id, tag_id) VALUES ($1, $2) ON CONFLICT DO NOTHING'
          : 'DELETE FROM tag_watches WHERE user_id = $1 AND tag_id = $2',
        [userId, tagId],
      );
    } catch (error) {
      // The tag was deleted (or merged away) meanwhile.
      if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) {
        throw new NotFoundException(WATCHING_MESSAGES.tagNotFound);
      }
      throw error;
    }
  }

  /**
   * A merge of tag `fromTagId` into `intoTagId` (call it in the merge's transaction, before deleting the
   * merged tag): its watchers watch the tag it became. A rename keeps the id, so needs nothing.
   */
  async moveTagWatches(db: EntityManager, fromTagId: number, intoTagId: number): Promise<void> {
    await db.query(
      `INSERT INTO tag_watches (user_id, tag_id, created_at)
       SELECT user_id, $2, created_at FROM tag_watches WHERE tag_id = $1
       ON CONFLICT (user_id, tag_id) DO NOTHING`,
      [fromTagId, intoTagId],
    );
    await db.query('DELETE FROM tag_watches WHERE tag_id = $1', [fromTagId]);
  }

  async tagState(userId: number, raw: string): Promise<TagWatchState> {
    const tagId = await this.tag(raw);
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM tag_watches WHERE user_id = $1 AND tag_id = $2',
      [userId, tagId],
    );
    return { watching: rows.length > 0 };
  }

  async autoWatch(userId: number): Promise<boolean> {
    const [row]: Array<{ autoWatch: boolean }> = await this.dataSource.query(
      'SELECT auto_watch AS "autoWatch" FROM watch_settings WHERE user_id = $1',
      [userId],
    );
    return row?.autoWatch ?? true;
  }

  async setSettings(userId: number, settings: WatchSettings): Promise<WatchSettings> {
    await this.dataSource.query(
      `INSERT INTO watch_settings (user_id, auto_watch) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET auto_watch = EXCLUDED.auto_watch`,
      [userId, settings.autoWatch],
    );
    return { autoWatch: settings.autoWatch };
  }

  /** The watching screen: each list newest first, pastes only while the member may read them. */
  async list(userId: number): Promise<WatchingList> {
    const [pastes, members, tags, autoWatch] = await Promise.all([
      this.dataSource.query(
        `SELECT t.id, ${REF_COLUMNS('t')}, t.title, t.language, t.created_at AS "createdAt",
           ${authorJson('a')} AS author, w.created_at AS "watchedAt"
         FROM paste_watches w ${readablePasteJoin('t', 'w.thread_id', '$1::int')}
           ${authorJoin('a', 't.author_id')}
         WHERE w.user_id = $1 AND w.watching AND t.id IS NOT NULL
         ORDER BY w.created_at DESC, w.thread_id DESC LIMIT $2`,
        [userId, WATCHING_LIST_MAX],
      ) as Promise<
        Array<
          RefRow & {
            id: number;
            title: string;
            language: string;
            createdAt: Date;
            author: PublicAuthor | null;
            watchedAt: Date;
          }
        >
      >,
      this.dataSource.query(
        `SELECT ${authorJson('a')} AS member, f.created_at AS "followedAt"
         FROM member_follows f ${authorJoin('a', 'f.member_id')}
         WHERE f.user_id = $1 AND a.id IS NOT NULL
         ORDER BY f.created_at DESC, f.member_id DESC LIMIT $2`,
        [userId, WATCHING_LIST_MAX],
      ) as Promise<Array<{ member: PublicAuthor; followedAt: Date }>>,
      this.dataSource.query(
        `SELECT g.name, g.paste_count AS "pasteCount", w.created_at AS "watchedAt"
         FROM tag_watches w ${tagJoin('g', 'w.tag_id')}
         WHERE w.user_id = $1 ORDER BY w.created_at DESC, w.tag_id DESC LIMIT $2`,
        [userId, WATCHING_LIST_MAX],
      ) as Promise<Array<{ name: string; pasteCount: number; watchedAt: Date }>>,
      this.autoWatch(userId),
    ]);
    return {
      autoWatch,
      pastes: pastes.map((row) => ({
        ref: refOf(row.id, row),
        title: row.title,
        language: row.language,
        author: row.author,
        createdAt: row.createdAt.toISOString(),
        watchedAt: row.watchedAt.toISOString(),
      })),
      members: members.map((row) => ({ member: row.member, followedAt: row.followedAt.toISOString() })),
      tags: tags.map((row) => ({
        name: row.name,
        pasteCount: row.pasteCount,
        watchedAt: row.watchedAt.toISOString(),
      })),
    };
  }
}
