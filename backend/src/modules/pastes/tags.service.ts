import {
  BadRequestException,
  ConflictException,
  Injectable,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import {
  ADMIN_TAGS_MAX,
  type AuditAction,
  type LanguagePage,
  PASTES_PAGE_SIZE,
  TAG_ADMIN_MESSAGES,
  TAG_MESSAGES,
  TAG_NAME_PATTERN,
  TAG_SUGGESTIONS_MAX,
  type TagList,
  type TagPage,
  TAGS_LIST_MAX,
  type TagSummary,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { decodeCursor, encodeCursor, keysetPage } from '../../common/keyset-cursor.js';
import { retryOnConflict } from '../../common/retry-on-conflict.js';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { type AuditActor, AuditService } from '../audit/audit.service.js';
import { CARD_COLUMNS, CARD_FROM } from './cards.js';
import { pasteLanguage } from './languages.js';
import { type CardRow, toCard } from './paste-rows.js';
import { listedSql } from './visibility.js';

/** A tag's row as the lists read it. */
type TagRow = TagSummary & { id: number };

const TAG_SELECT = 'g.id, g.name, g.paste_count AS "pasteCount"';

/** A name as a path gives it (any case); one no tag could have finds none. */
function tagName(raw: string): string | null {
  const name = raw.trim().toLowerCase();
  return TAG_NAME_PATTERN.test(name) ? name : null;
}

/** An admin's change to a tag: what the audit entry says, and the pastes it touched. */
interface TagChange {
  action: AuditAction;
  tag: TagRow;
  after: Record<string, unknown>;
  threads: number[];
}

/** Whether a typed prefix could start a tag's name (`c++`, or a NUL byte PostgreSQL refuses, cannot). */
const namesAnyTag = (prefix: string | undefined) => prefix === undefined || /^[a-z0-9-]*$/.test(prefix);

/** Moves what a module keeps of tag `fromId` to `intoId`, in the merge's transaction. */
export type TagMergeHook = (manager: EntityManager, fromId: number, intoId: number) => Promise<void>;

/**
 * Tags: the lists (by use, a tag's pastes, a language's pastes) and the admins' rename, merge and delete.
 * The writes of a paste's tags are threads.tags alone; the triggers of migration 17974000000001 keep
 * paste_tags and tags.paste_count (listed pastes only) from it, whatever path changes a paste.
 */
@Injectable()
export class TagsService {
  private readonly logger = new Logger('Tags');

  private readonly mergeHooks: TagMergeHook[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly events: EventsPort,
  ) {}

  /** A module above this one that keeps rows of a tag (its watchers) moves them when a merge deletes it. */
  onMerge(hook: TagMergeHook): void {
    this.mergeHooks.push(hook);
  }

  /**
   * Tags some listed paste carries, most used first: TAGS_LIST_MAX of them, or with `prefix` the
   * TAG_SUGGESTIONS_MAX most used that start with it. A tag of private pastes only is never named.
   */
  async list(prefix?: string): Promise<TagList> {
    if (!namesAnyTag(prefix)) return { tags: [] };
    const rows: TagRow[] =
      prefix === undefined
        ? await this.dataSource.query(
            `SELECT ${TAG_SELECT} FROM tags g WHERE g.paste_count > 0
             ORDER BY g.paste_count DESC, g.name LIMIT ${TAGS_LIST_MAX}`,
          )
        : await this.dataSource.query(
            `SELECT ${TAG_SELECT} FROM tags g WHERE g.paste_count > 0 AND starts_with(g.name, $1)
             ORDER BY g.paste_count DESC, g.name LIMIT ${TAG_SUGGESTIONS_MAX}`,
            [prefix],
          );
    return { tags: rows.map(({ name, pasteCount }) => ({ name, pasteCount })) };
  }

  /**
   * A tag's listed pastes, newest first, a page after `cursor`: a walk of paste_tags_tag_idx. 404
   * (TAG_MESSAGES.tagNotFound) for a tag no listed paste carries.
   */
  async page(raw: string, cursor?: string): Promise<TagPage> {
    const name = tagName(raw);
    const [tag]: TagRow[] =
      name === null
        ? []
        : await this.dataSource.query(
            `SELECT ${TAG_SELECT} FROM tags g WHERE g.name = $1 AND g.paste_count > 0`,
            [name],
          );
    if (!tag) throw new NotFoundException(TAG_MESSAGES.tagNotFound);
    const after = cursor ? decodeCursor(cursor, 'micros') : undefined;
    const params: unknown[] = [tag.id, PASTES_PAGE_SIZE + 1];
    let older = '';
    if (after) {
      params.push(after.key, after.id);
      older = `AND (pt.created_at, pt.thread_id) < ('epoch'::timestamptz + $3::bigint * interval '1 microsecond', $4::integer)`;
    }
    const rows: CardRow[] = await this.dataSource.query(
      `SELECT ${CARD_COLUMNS} FROM ${CARD_FROM} JOIN paste_tags pt ON pt.thread_id = t.id
       WHERE pt.tag_id = $1 AND ${listedSql('t')} ${older}
       ORDER BY pt.created_at DESC, pt.thread_id DESC LIMIT $2`,
      params,
    );
    // Its pastes expired while their jobs have not run yet: counted still, listed no more.
    if (rows.length === 0 && !after) throw new NotFoundException(TAG_MESSAGES.tagNotFound);
    const threads = rows.slice(0, PASTES_PAGE_SIZE);
    const last = threads.at(-1);
    return {
      tag: { name: tag.name, pasteCount: tag.pasteCount },
      threads: threads.map(toCard),
      nextCursor: rows.length > PASTES_PAGE_SIZE && last ? encodeCursor(last.createdMicros, last.id) : null,
    };
  }

  /**
   * The listed pastes in a language (a highlight.js name or alias; unknown: 400), newest first: a walk
   * of threads_language_idx. Markdown is the pastes stored without one.
   */
  async language(raw: string, cursor?: string): Promise<LanguagePage> {
    const language = pasteLanguage(raw);
    const { rows, nextCursor } = await keysetPage<CardRow>(
      (sql, params) => this.dataSource.query(sql, params),
      {
        alias: 't',
        select: CARD_COLUMNS,
        from: CARD_FROM,
        where: `${language === null ? 't.language IS NULL' : 't.language = $1'} AND ${listedSql('t')}`,
        params: language === null ? [] : [language],
        pageSize: PASTES_PAGE_SIZE,
        cursor,
      },
    );
    return {
      language: language ?? 'markdown',
      threads: rows.map(toCard),
      nextCursor,
    };
  }

  /** Every tag, unused ones too, most used first (the admins' screen); `prefix` as in list. */
  async adminList(prefix?: string): Promise<TagList> {
    if (!namesAnyTag(prefix)) return { tags: [] };
    const rows: TagRow[] = await this.dataSource.query(
      `SELECT ${TAG_SELECT} FROM tags g WHERE $1::text IS NULL OR starts_with(g.name, $1)
       ORDER BY g.paste_count DESC, g.name LIMIT ${ADMIN_TAGS_MAX}`,
      [prefix ?? null],
    );
    return { tags: rows.map(({ name, pasteCount }) => ({ name, pasteCount })) };
  }

  /** Renames tag `raw` to `to` on every paste that carries it (409 when `to` is another tag's name). */
  async rename(admin: AuditActor, raw: string, to: string): Promise<void> {
    await this.change(admin, raw, async (manager, tag) => {
      if (to === tag.name) return null;
      const [taken]: TagRow[] = await manager.query('SELECT id FROM tags WHERE name = $1', [to]);
      if (taken) throw new ConflictException(TAG_ADMIN_MESSAGES.nameTaken(to));
      const threads = await this.retag(manager, tag, 'array_replace(t.tags, $2, $3)', [tag.name, to]);
      await manager.query('UPDATE tags SET name = $2 WHERE id = $1', [tag.id, to]);
      return { action: 'tag.rename', tag, after: { name: to }, threads };
    });
  }

  /**
   * Merges tag `raw` into `into` (which must exist): its pastes carry `into`, once, in the place the
   * merged tag had when they did not already; then it is deleted.
   */
  async merge(admin: AuditActor, raw: string, into: string): Promise<void> {
    await this.change(admin, raw, async (manager, tag) => {
      if (into === tag.name) throw new BadRequestException(TAG_ADMIN_MESSAGES.mergeIntoItself);
      const [target]: TagRow[] = await manager.query(
        `SELECT ${TAG_SELECT} FROM tags g WHERE g.name = $1 FOR UPDATE`,
        [into],
      );
      if (!target) throw new NotFoundException(TAG_MESSAGES.tagNotFound);
      const threads = await this.retag(
        manager,
        tag,
        'CASE WHEN $3 = ANY (t.tags) THEN array_remove(t.tags, $2) ELSE array_replace(t.tags, $2, $3) END',
        [tag.name, into],
      );
      await manager.query(
        `INSERT INTO paste_tags (thread_id, tag_id, created_at)
         SELECT thread_id, $2, created_at FROM paste_tags WHERE tag_id = $1 ON CONFLICT DO NOTHING`,
        [tag.id, target.id],
      );
      for (const hook of this.mergeHooks) await hook(manager, tag.id, target.id);
      await manager.query('DELETE FROM tags WHERE id = $1', [tag.id]);
      await recount(manager, [target.id]);
      return { action: 'tag.merge', tag, after: { into, pastes: threads.length }, threads };
    });
  }

  /** Deletes tag `raw`, taking it off every paste that carries it. */
  async remove(admin: AuditActor, raw: string): Promise<void> {
    await this.change(admin, raw, async (manager, tag) => {
      const threads = await this.retag(manager, tag, 'array_remove(t.tags, $2)', [tag.name]);
      await manager.query('DELETE FROM tags WHERE id = $1', [tag.id]);
      return { action: 'tag.delete', tag, after: { pastes: threads.length }, threads };
    });
  }

  /**
   * An admin's change of tag `raw` (404 when there is none) with its audit entry, in one transaction
   * with the triggers off: it writes threads.tags, paste_tags and the counts itself, the tags table
   * locked first so that no paste is tagged meanwhile with a name it did not see (retried on a deadlock).
   */
  private async change(
    admin: AuditActor,
    raw: string,
    write: (manager: EntityManager, tag: TagRow) => Promise<TagChange | null>,
  ): Promise<void> {
    const name = tagName(raw);
    if (name === null) throw new NotFoundException(TAG_MESSAGES.tagNotFound);
    const done = await retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        await manager.query("SELECT set_config('termpaste.tag_triggers', 'off', true)");
        await manager.query('LOCK TABLE tags IN SHARE ROW EXCLUSIVE MODE');
        const [tag]: TagRow[] = await manager.query(`SELECT ${TAG_SELECT} FROM tags g WHERE g.name = $1`, [
          name,
        ]);
        if (!tag) throw new NotFoundException(TAG_MESSAGES.tagNotFound);
        const change = await write(manager, tag);
        if (change === null) return null;
        await this.audit.record(manager, admin, {
          action: change.action,
          targetType: 'tag',
          targetId: tag.id,
          targetLabel: tag.name,
          before: { name: tag.name, pasteCount: tag.pasteCount },
          after: change.after,
        });
        return change;
      }),
    );
    if (done === null) return;
    // Cards and pages show the tags: every list, and the pages of the pastes that carried it.
    await announcePagesChanged(
      this.events,
      done.threads.length > 500 ? { all: true } : { lists: true, threads: done.threads },
      this.logger,
    );
  }

  /** Sets threads.tags to `expression` (of `t.tags`, `params` from $2) on each paste carrying `tag`; answers their ids. */
  private async retag(
    manager: EntityManager,
    tag: TagRow,
    expression: string,
    params: string[],
  ): Promise<number[]> {
    // In id order, as a deletion of many posts locks them.
    // An UPDATE answers [rows, count] through TypeORM.
    const [rows] = (await manager.query(
      `UPDATE threads t SET tags = ${expression}
       FROM (SELECT s.id FROM threads s JOIN paste_tags pt ON pt.thread_id = s.id AND pt.tag_id = $1
             ORDER BY s.id FOR NO KEY UPDATE OF s) locked
       WHERE t.id = locked.id RETURNING t.id`,
      [tag.id, ...params],
    )) as [Array<{ id: number }>, number];
    return rows.map((row) => row.id);
  }
}

/** Sets the counts of `tagIds` to their listed pastes (an admin's change, with the triggers off). */
async function recount(manager: EntityManager, tagIds: number[]): Promise<void> {
  await manager.query(
    `UPDATE tags g SET paste_count = (
       SELECT count(*) FROM paste_tags pt JOIN threads t ON t.id = pt.thread_id WHERE pt.tag_id = g.id AND t.listed
     ) WHERE g.id = ANY ($1)`,
    [tagIds],
  );
}
