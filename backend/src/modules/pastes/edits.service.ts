import {
  newPasteKey,
  readableSql,
  REF_COLUMNS,
  refOf,
  type RefRow,
  refWhere,
  resolveReplyPaste,
} from './visibility.js';
import { ForbiddenException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  type EditedReply,
  type EditedPaste,
  type ExpiresIn,
  editRefusal,
  LINE_COMMENT_MESSAGES,
  PASTE_LIVE_EVENT,
  POST_MESSAGES,
  revisionLines,
  OWN_POSTS_MESSAGES,
  SIGNATURE_MESSAGES,
  type PasteLiveEvent,
  pasteKeyed,
  type PasteRef,
  VERSIONS_KEPT_NEWEST,
  type Visibility,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Paste } from './entities/paste.entity.js';
import { checkRecording } from './languages.js';
import type { PasteRevision } from './entities/paste-revision.entity.js';
import { Reply } from './entities/reply.entity.js';
import { announcePagesChanged, EventsPort, type PagesChanged } from '../../infra/events/events.port.js';
import { secretValues } from '../../common/secret-scanner.js';
import { AuditService, excerpt } from '../audit/audit.service.js';
import { lineChanges } from './line-changes.js';
import { type AppliedSuggestion, suggestedContent } from './line-comments.js';
import { PasteExpiry } from './paste-expiry.js';
import { UsersService } from '../users/users.service.js';
import { PASTE_STATS_SLOT } from './pastes.service.js';
import { takeLock } from '../../infra/database/lock-order.js';
import { SigningService } from '../signing/signing.service.js';

/**
 * Who edits: the signed-in member, with an admin's powers only with a session (an access token never carries
 * them).
 */
export interface Editor {
  id: number;
  username: string;
  isAdmin: boolean;
}

/**
 * A paste's new title, content, language (already canonical: languages.ts) or visibility, or how long
 * it lives from now (`never`: for ever); absent fields stay.
 */
export interface PasteChange {
  title?: string;
  content?: string;
  language?: string | null;
  expiresIn?: ExpiresIn;
  visibility?: Visibility;
  /** Its tags, already judged (tagsSchema); `[]` takes them all off. No version of its own. */
  tags?: string[];
  /** A new SSH signature of the (new) content by its author; absent: a new content drops the old one. */
  signature?: string;
}

/** What a change of visibility did for the paste's readers (EditsService.changeVisibility). */
type VisibilityChange = 'same' | 'listed' | 'hidden' | 'widened';
/** How many may read a paste of each visibility, in order. */
const VISIBILITY_REACH: Record<Visibility, number> = { private: 0, unlisted: 1, public: 2 };

const EDITED_PASTE_PROPERTIES = [
  'id',
  'title',
  'content',
  'language',
  'authorId',
  'isLocked',
  'createdAt',
  'editedAt',
  'expiresAt',
  'listed',
  'tags',
] as const;
const EDITED_PASTE_SELECT = selectColumns(Paste, 't', EDITED_PASTE_PROPERTIES);
type PasteRow = Row<Paste, (typeof EDITED_PASTE_PROPERTIES)[number]> & RefRow;

const EDITED_REPLY_PROPERTIES = ['pasteId', 'content', 'authorId', 'createdAt', 'editedAt'] as const;
const EDITED_REPLY_SELECT = selectColumns(Reply, 'r', EDITED_REPLY_PROPERTIES);
type ReplyRow = Row<Reply, (typeof EDITED_REPLY_PROPERTIES)[number]> & Row<Paste, 'isLocked'> & RefRow;

/**
 * Edits with history, by the author or an admin, in one transaction: the post locked, its versions (the
 * original as n = 1 on the first edit), `edited_at`, and an admin's audit entry. No change, no write.
 */
/** A paste's ref and the facts of its life, as an edit's answer shows them. */
function lifeOf(
  threadId: number,
  row: PasteRow,
): Pick<EditedPaste, 'id' | 'visibility' | 'expiresAt' | 'burnAfterReading' | 'tags'> {
  return {
    id: refOf(threadId, row),
    visibility: row.pasteVisibility,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    burnAfterReading: row.pasteBurns,
    tags: row.tags,
  };
}

/** Two lists of tags alike, in the same order (the author's order is shown). */
const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((name, i) => name === b[i]);

@Injectable()
export class EditsService {
  private readonly logger = new Logger('Edits');

  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly events: EventsPort,
    private readonly expiry: PasteExpiry,
    private readonly users: UsersService,
    private readonly signing: SigningService,
  ) {}

  private pagesChanged(change: Omit<PagesChanged, 'type'>, pasteEvent?: PasteLiveEvent): Promise<void> {
    return announcePagesChanged(this.events, change, this.logger, pasteEvent);
  }

  /**
   * Applies line comment `replyId`'s suggestion to the paste, as its author's edit (a new version that
   * credits the suggester, the comment marked applied, in one transaction): 403 for anyone but the
   * author; `check` judges the new text (its size) before it is written.
   */
  applySuggestion(
    editor: Editor,
    ref: PasteRef,
    replyId: number,
    check: (content: string) => void,
  ): Promise<EditedPaste> {
    return this.editPaste(editor, ref, {}, { replyId, check });
  }

  async editPaste(
    editor: Editor,
    ref: PasteRef,
    requested: PasteChange,
    suggestion?: { replyId: number; check: (content: string) => void },
  ): Promise<EditedPaste> {
    let change = requested;
    let expiresAt: Date | null | undefined;
    let retagged = false;
    let signed = false;
    const { view, changed, authorId, before, threadId, seen } = await this.dataSource.transaction(
      async (manager) => {
        // Only a reader edits: a private paste is its author's alone (an admin's edit finds none).
        takeLock(manager, 'paste');
        const [row]: PasteRow[] = await manager.query(
          `SELECT ${EDITED_PASTE_SELECT}, ${REF_COLUMNS('t')}
           FROM threads t WHERE ${refWhere('t', ref, 1)} AND ${readableSql('t', '$2::int')}
           FOR NO KEY UPDATE`,
          [ref, editor.id],
        );
        if (!row) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
        const threadId = row.id;
        // A suggestion is its paste's author's to take: an admin's powers do not reach it.
        if (suggestion && editor.id !== row.authorId) {
          throw new ForbiddenException(LINE_COMMENT_MESSAGES.notYourPaste);
        }
        const refusal = editRefusal(editor, { authorId: row.authorId, locked: row.isLocked });
        if (refusal) throw new ForbiddenException(refusal);
        let credit: AppliedSuggestion | null = null;
        if (suggestion) {
          credit = await suggestedContent(manager, threadId, row.content, suggestion.replyId);
          suggestion.check(credit.content);
          change = { content: credit.content };
        }
        const seen = await this.changeVisibility(manager, editor, row, change.visibility);
        if (change.expiresIn !== undefined) {
          // From now, whatever it was; no version of its own (the text did not change).
          expiresAt = this.expiry.expiresAt(change.expiresIn);
          await manager.query('UPDATE threads SET expires_at = $2 WHERE id = $1', [threadId, expiresAt]);
          row.expiresAt = expiresAt;
        }
        if (change.tags !== undefined && !sameTags(change.tags, row.tags)) {
          // No version of its own either: the history is the text's. The triggers keep paste_tags and
          // the counts (migration 17974000000001).
          await manager.query('UPDATE threads SET tags = $2 WHERE id = $1', [threadId, change.tags]);
          if (editor.id !== row.authorId) {
            await this.audit.record(manager, editor, {
              action: 'thread.edit',
              targetType: 'thread',
              targetId: threadId,
              targetLabel: row.title,
              before: { tags: row.tags, authorId: row.authorId },
              after: { tags: change.tags, authorId: row.authorId },
            });
          }
          row.tags = change.tags;
          retagged = true;
        }
        const next = {
          title: change.title ?? row.title,
          content: change.content ?? row.content,
          language: change.language === undefined ? row.language : change.language,
        };
        // A recording stays one only while its content is one (400 otherwise, before anything is written).
        if (next.content !== row.content || next.language !== row.language)
          checkRecording(next.language, next.content);
        // A signature signs exact bytes: new ones keep it only with a new signature, by the author.
        if (change.signature !== undefined) {
          if (editor.id !== row.authorId) throw new ForbiddenException(SIGNATURE_MESSAGES.authorOnly);
          await this.signing.replace(
            manager,
            threadId,
            await this.signing.check(row.authorId, next.content, change.signature),
          );
          signed = true;
        } else if (next.content !== row.content) {
          await this.signing.drop(manager, threadId);
        }
        const kept = await this.versions(manager, 'thread_revisions', 'thread_id', threadId);
        const unchanged =
          next.title === row.title && next.content === row.content && next.language === row.language;
        if (unchanged) {
          const view: EditedPaste = {
            ...lifeOf(threadId, row),
            ...next,
            editedAt: row.editedAt?.toISOString() ?? null,
            revisions: Math.max(kept, 1),
            secretVersions: [],
          };
          return { view, changed: false, authorId: row.authorId, before: row.content, threadId, seen };
        }
        if (kept === 0) {
          // The original, as it was posted: its author and time.
          await manager.query(
            `INSERT INTO thread_revisions
               (thread_id, n, title, content, language, editor_id, created_at, lines_added, lines_removed)
             VALUES ($1, 1, $2, $3, $4, $5, $6, $7, 0)`,
            [
              threadId,
              row.title,
              row.content,
              row.language,
              row.authorId,
              row.createdAt,
              lineCount(row.content),
            ],
          );
        }
        const n = Math.max(kept, 1) + 1;
        const lines = lineChanges(row.content, next.content);
        const [revision]: Array<Row<PasteRevision, 'createdAt'>> = await manager.query(
          `INSERT INTO thread_revisions (thread_id, n, title, content, language, editor_id, lines_added,
             lines_removed, suggested_by, suggestion_reply_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING created_at AS "createdAt"`,
          [
            threadId,
            n,
            next.title,
            next.content,
            next.language,
            editor.id,
            lines.added,
            lines.removed,
            credit?.suggestedBy ?? null,
            credit?.replyId ?? null,
          ],
        );
        const editedAt = revision!.createdAt;
        if (credit) {
          await manager.query('UPDATE replies SET suggestion_applied = $2 WHERE id = $1', [
            credit.replyId,
            n,
          ]);
        }
        await prune(manager, PASTE_VERSIONS, threadId, n);
        await manager.query(
          'UPDATE threads SET title = $2, content = $3, language = $4, edited_at = $5 WHERE id = $1',
          [threadId, next.title, next.content, next.language, editedAt],
        );
        if (editor.id !== row.authorId) {
          await this.audit.record(manager, editor, {
            action: 'thread.edit',
            targetType: 'thread',
            targetId: threadId,
            targetLabel: next.title,
            before: { title: row.title, language: row.language, revision: n - 1, authorId: row.authorId },
            after: {
              title: next.title,
              language: next.language,
              revision: n,
              authorId: row.authorId,
              linesAdded: lines.added,
              linesRemoved: lines.removed,
            },
          });
        }
        const view: EditedPaste = {
          ...lifeOf(threadId, row),
          ...next,
          editedAt: editedAt.toISOString(),
          revisions: n,
          secretVersions: [],
        };
        return { view, changed: true, authorId: row.authorId, before: row.content, threadId, seen };
      },
    );
    const profiles = authorId === null ? {} : { profiles: [authorId] };
    if (expiresAt !== undefined) await this.expiry.schedule(threadId, expiresAt);
    // Its card and page show when it expires, and its tags.
    if (!changed && (expiresAt !== undefined || retagged || signed)) {
      await announcePagesChanged(this.events, { lists: true, threads: [threadId] }, this.logger);
    }
    if (changed) {
      view.secretVersions = await this.secretVersions(PASTE_VERSIONS, threadId, before, view.content);
      await this.pagesChanged(
        { lists: true, threads: [threadId], ...profiles },
        { type: PASTE_LIVE_EVENT.pasteEdited, threadId, title: view.title, editedAt: view.editedAt! },
      );
    }
    if (seen !== 'same') await this.visibilityChanged(threadId, authorId, seen, profiles);
    return view;
  }

  /**
   * In the edit's transaction, the paste's new visibility (its author's alone: 403 for an admin): a key
   * when first needed, counts moved when it enters or leaves the lists. Returns what changed for readers:
   * `listed`, `hidden`, `widened` or `same`.
   */
  private async changeVisibility(
    manager: EntityManager,
    editor: Editor,
    row: PasteRow,
    visibility: Visibility | undefined,
  ): Promise<VisibilityChange> {
    if (visibility === undefined || visibility === row.pasteVisibility) return 'same';
    if (editor.id !== row.authorId) throw new ForbiddenException(OWN_POSTS_MESSAGES.notYourVisibility);
    const keyed = pasteKeyed({ visibility, burnAfterReading: row.pasteBurns });
    const key = row.pasteKey ?? (keyed ? newPasteKey() : null);
    const [[updated]] = (await manager.query(
      'UPDATE threads SET visibility = $2, key = $3 WHERE id = $1 RETURNING listed',
      [row.id, visibility, key],
    )) as [Array<Row<Paste, 'listed'>>, number];
    const counted = Number(updated!.listed) - Number(row.listed);
    if (counted !== 0) {
      if (row.authorId !== null) await this.users.moveCounts(manager, row.authorId, { pastes: counted });
      await manager.query(
        `UPDATE forum_stats SET thread_count = thread_count + $1 WHERE slot = ${PASTE_STATS_SLOT}`,
        [counted],
      );
    }
    const wider = VISIBILITY_REACH[visibility] > VISIBILITY_REACH[row.pasteVisibility];
    row.pasteVisibility = visibility;
    row.pasteKey = key;
    if (counted > 0) return 'listed';
    return wider ? 'widened' : 'hidden';
  }

  /**
   * After the commit: every page that showed the paste is stale; the lists hear of a paste that entered
   * them, and the live sockets that may no longer read one are told it is gone and stop hearing of it.
   */
  private async visibilityChanged(
    threadId: number,
    authorId: number | null,
    seen: Exclude<VisibilityChange, 'same'>,
    profiles: { profiles?: number[] },
  ): Promise<void> {
    await this.pagesChanged(
      { lists: true, threads: [threadId], ...profiles },
      seen === 'listed' ? { type: PASTE_LIVE_EVENT.pasteAdded, threadId } : undefined,
    );
    if (seen === 'hidden') {
      await this.events.broadcast({ type: 'paste_hidden', threadId, authorId }).catch((error: unknown) => {
        this.logger.warn(
          `Live sockets not told of a hidden paste: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    }
  }

  async editReply(editor: Editor, replyId: number, content: string): Promise<EditedReply> {
    const { view, changed, before, threadId } = await this.dataSource.transaction(async (manager) => {
      // A reply on a paste the editor may not read is not found, as the paste.
      await resolveReplyPaste(manager, replyId, editor.id);
      takeLock(manager, 'reply', [replyId]);
      const [row]: ReplyRow[] = await manager.query(
        `SELECT ${EDITED_REPLY_SELECT}, t.is_locked AS "isLocked", ${REF_COLUMNS('t')}
         FROM replies r JOIN threads t ON t.id = r.thread_id
         WHERE r.id = $1 AND r.deleted_at IS NULL AND t.deleted_at IS NULL FOR NO KEY UPDATE OF r`,
        [replyId],
      );
      if (!row) throw new NotFoundException(POST_MESSAGES.replyNotFound);
      const refusal = editRefusal(editor, { authorId: row.authorId, locked: row.isLocked });
      if (refusal) throw new ForbiddenException(refusal);
      const kept = await this.versions(manager, 'reply_revisions', 'reply_id', replyId);
      if (content === row.content) {
        const view: EditedReply = {
          id: replyId,
          threadId: refOf(row.pasteId, row),
          content,
          editedAt: row.editedAt?.toISOString() ?? null,
          revisions: Math.max(kept, 1),
          secretVersions: [],
        };
        return { view, changed: false, before: row.content, threadId: row.pasteId };
      }
      if (kept === 0) {
        await manager.query(
          `INSERT INTO reply_revisions (reply_id, n, content, editor_id, created_at, lines_added, lines_removed)
           VALUES ($1, 1, $2, $3, $4, $5, 0)`,
          [replyId, row.content, row.authorId, row.createdAt, lineCount(row.content)],
        );
      }
      const n = Math.max(kept, 1) + 1;
      const lines = lineChanges(row.content, content);
      const [revision]: Array<Row<PasteRevision, 'createdAt'>> = await manager.query(
        `INSERT INTO reply_revisions (reply_id, n, content, editor_id, lines_added, lines_removed)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at AS "createdAt"`,
        [replyId, n, content, editor.id, lines.added, lines.removed],
      );
      const editedAt = revision!.createdAt;
      await prune(manager, REPLY_VERSIONS, replyId, n);
      await manager.query('UPDATE replies SET content = $2, edited_at = $3 WHERE id = $1', [
        replyId,
        content,
        editedAt,
      ]);
      if (editor.id !== row.authorId) {
        await this.audit.record(manager, editor, {
          action: 'reply.edit',
          targetType: 'reply',
          targetId: replyId,
          targetLabel: excerpt(content),
          before: {
            threadId: row.pasteId,
            authorId: row.authorId,
            revision: n - 1,
            content: excerpt(row.content),
          },
          after: {
            threadId: row.pasteId,
            authorId: row.authorId,
            revision: n,
            content: excerpt(content),
            linesAdded: lines.added,
            linesRemoved: lines.removed,
          },
        });
      }
      const view: EditedReply = {
        id: replyId,
        threadId: refOf(row.pasteId, row),
        content,
        editedAt: editedAt.toISOString(),
        revisions: n,
        secretVersions: [],
      };
      return { view, changed: true, before: row.content, threadId: row.pasteId };
    });
    if (changed) {
      view.secretVersions = await this.secretVersions(REPLY_VERSIONS, replyId, before, content);
      await this.pagesChanged(
        { threads: [threadId!] },
        { type: PASTE_LIVE_EVENT.replyEdited, threadId: threadId!, replyId, editedAt: view.editedAt! },
      );
    }
    return view;
  }

  /**
   * The older versions that still hold a possible secret the edit took out (in `before`, not in `after`),
   * oldest first; none when it took none out (the common case: one scan of the text before, no query).
   */
  private async secretVersions(
    versions: VersionsTable,
    id: number,
    before: string,
    after: string,
  ): Promise<number[]> {
    // A title or language edit keeps the text: nothing was taken out of it, and no scan is needed.
    if (before === after) return [];
    const removed = (await secretValues(before)).filter((value) => !after.includes(value));
    if (removed.length === 0) return [];
    const rows: Array<{ n: number }> = await this.dataSource.query(
      `SELECT n FROM ${versions.table} v
       WHERE v.${versions.key} = $1 AND v.content IS NOT NULL
         AND EXISTS (SELECT 1 FROM unnest($2::text[]) s WHERE strpos(v.content, s) > 0)
       ORDER BY n`,
      [id, removed],
    );
    return rows.map((row) => row.n);
  }

  /** How many versions a post keeps (0: never edited; its one version is the post itself). */
  private async versions(
    manager: EntityManager,
    table: 'thread_revisions' | 'reply_revisions',
    column: 'thread_id' | 'reply_id',
    id: number,
  ): Promise<number> {
    const [row]: Array<{ n: number }> = await manager.query(
      `SELECT COALESCE(max(n), 0)::int AS n FROM ${table} WHERE ${column} = $1`,
      [id],
    );
    return row!.n;
  }
}

/** Where a paste's or a reply's versions are kept. */
export interface VersionsTable {
  table: 'thread_revisions' | 'reply_revisions';
  key: 'thread_id' | 'reply_id';
}
const PASTE_VERSIONS: VersionsTable = { table: 'thread_revisions', key: 'thread_id' };
const REPLY_VERSIONS: VersionsTable = { table: 'reply_revisions', key: 'reply_id' };

/**
 * Deletes, in the edit's transaction, the versions between the original and the newest
 * VERSIONS_KEPT_NEWEST once version `newest` is written (a query only when there are that many).
 */
async function prune(
  manager: EntityManager,
  versions: VersionsTable,
  id: number,
  newest: number,
): Promise<void> {
  const keptFrom = newest - VERSIONS_KEPT_NEWEST + 1;
  if (keptFrom <= 2) return;
  await manager.query(`DELETE FROM ${versions.table} WHERE ${versions.key} = $1 AND n > 1 AND n < $2`, [
    id,
    keptFrom,
  ]);
}

/** The original's lines, all added. */
export function lineCount(text: string): number {
  return revisionLines(text).length;
}
