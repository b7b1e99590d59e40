import { ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { aliveSql } from './visibility.js';
import {
  POST_MESSAGES,
  type PrunedRange,
  purgeRefusal,
  type Revision,
  type RevisionList,
  REVISIONS_MESSAGES,
  type PasteRef,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Paste } from './entities/paste.entity.js';
import { PasteRevision } from './entities/paste-revision.entity.js';
import { ReplyRevision } from './entities/reply-revision.entity.js';
import { type FullVersionRow, toRevisionSummary, VERSION_PROPERTIES, type VersionRow } from './paste-rows.js';
import { AuditService, excerpt } from '../audit/audit.service.js';
import { authorJoin, authorJson } from '../users/author-sql.js';
import { lineCount } from './edits.service.js';
import { resolvePaste, resolveReplyPaste } from './visibility.js';
import { takeLock } from '../../infra/database/lock-order.js';

/** What differs between a paste's and a reply's versions: where they are kept and what they hold. */
interface Kind {
  table: 'thread_revisions' | 'reply_revisions';
  key: 'thread_id' | 'reply_id';
  /** The post itself as its one version (never edited). */
  posts: 'threads' | 'replies';
  /** The audit action of an admin's removal of a version of another member's post. */
  purgeAction: 'thread.revision_purge' | 'reply.revision_purge';
  /** A version's own columns, as `v` (paste-rows.ts' VERSION_PROPERTIES). */
  version: string;
  /** The title and language columns of a version or a post as `alias` (a reply has neither). */
  title: (alias: string) => string;
  language: (alias: string) => string;
  notFound: string;
  /** A version's credit (a paste's made by applying a suggestion), as `v`, with its join. */
  credit: string;
  creditJoin: string;
}

/** Who may read a reply's versions: its paste's author alone while the paste burns after reading. */
const BURNS_SELECT = selectColumns(Paste, 't', ['burnAfterReading', 'authorId']);

const PASTE: Kind = {
  table: 'thread_revisions',
  key: 'thread_id',
  posts: 'threads',
  purgeAction: 'thread.revision_purge',
  version: selectColumns(PasteRevision, 'v', VERSION_PROPERTIES),
  title: (alias) => `${alias}.title`,
  language: (alias) => `${alias}.language`,
  notFound: POST_MESSAGES.pasteNotFound,
  credit: `${authorJson('s')} AS "suggestedBy", v.suggestion_reply_id AS "suggestionReplyId"`,
  creditJoin: authorJoin('s', 'v.suggested_by'),
};
const REPLY: Kind = {
  table: 'reply_revisions',
  key: 'reply_id',
  posts: 'replies',
  purgeAction: 'reply.revision_purge',
  version: selectColumns(ReplyRevision, 'v', VERSION_PROPERTIES),
  title: () => 'NULL::text',
  language: () => 'NULL::text',
  notFound: POST_MESSAGES.replyNotFound,
  credit: 'NULL::json AS "suggestedBy", NULL::int AS "suggestionReplyId"',
  creditJoin: '',
};

/** The numbers missing between the versions kept (`ns`, newest first): what edits pruned, newest first. */
export function prunedRanges(ns: readonly number[]): PrunedRange[] {
  const ranges: PrunedRange[] = [];
  for (let i = 1; i < ns.length; i++) {
    const [newer, older] = [ns[i - 1]!, ns[i]!];
    if (newer - older > 1) ranges.push({ from: older + 1, to: newer - 1 });
  }
  return ranges;
}

/** Who removes a version: a signed-in member, with an admin's powers (sessions only: no token reaches it). */
export interface Purger {
  id: number;
  username: string;
  isAdmin: boolean;
}

/**
 * The versions of a paste or a reply, open to whoever may read the post (visibility.ts). A post never
 * edited has one version, the post itself (n = 1, by its author, every line added).
 */
@Injectable()
export class RevisionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  async pasteRevisions(ref: PasteRef, viewerId: number | null): Promise<RevisionList> {
    return this.list(PASTE, await this.readablePaste(ref, viewerId));
  }

  async pasteRevision(ref: PasteRef, n: number, viewerId: number | null): Promise<Revision> {
    return this.one(PASTE, await this.readablePaste(ref, viewerId), n);
  }

  async replyRevisions(replyId: number, viewerId: number | null): Promise<RevisionList> {
    await this.readableReply(replyId, viewerId);
    return this.list(REPLY, replyId);
  }

  async replyRevision(replyId: number, n: number, viewerId: number | null): Promise<Revision> {
    await this.readableReply(replyId, viewerId);
    return this.one(REPLY, replyId, n);
  }

  async purgePasteRevision(user: Purger, ref: PasteRef, n: number): Promise<void> {
    return this.purge(PASTE, user, await this.readablePaste(ref, user.id), n);
  }

  async purgeReplyRevision(user: Purger, replyId: number, n: number): Promise<void> {
    await this.readableReply(replyId, user.id);
    return this.purge(REPLY, user, replyId, n);
  }

  /**
   * The number of the paste `ref` names, when `viewerId` may read it and its versions (a paste that burns
   * after reading: its author only, as its text), else 404 'Thread not found'.
   */
  private async readablePaste(ref: PasteRef, viewerId: number | null): Promise<number> {
    const paste = await resolvePaste(this.dataSource, ref, viewerId);
    if (paste.burnAfterReading && paste.authorId !== viewerId) {
      throw new NotFoundException(POST_MESSAGES.pasteNotFound);
    }
    return paste.id;
  }

  /** The reply's paste is one `viewerId` may read (as readablePaste), else a 404. */
  private async readableReply(replyId: number, viewerId: number | null): Promise<void> {
    const { threadId } = await resolveReplyPaste(this.dataSource, replyId, viewerId);
    const [paste]: Array<
      Row<Paste, 'burnAfterReading' | 'authorId'> & { hidden: { author: number | null } | null }
    > = await this.dataSource.query(
      `SELECT ${BURNS_SELECT},
           (SELECT json_build_object('author', r.author_id) FROM replies r
            WHERE r.id = $2 AND r.hidden_at IS NOT NULL) AS hidden
         FROM threads t WHERE t.id = $1`,
      [threadId, replyId],
    );
    if (paste?.burnAfterReading && paste.authorId !== viewerId)
      throw new NotFoundException(POST_MESSAGES.pasteNotFound);
    // A reply hidden pending review: its versions are its author's alone.
    if (paste?.hidden && (viewerId === null || paste.hidden.author !== viewerId)) {
      throw new NotFoundException(POST_MESSAGES.replyNotFound);
    }
  }

  /**
   * Removes version `n`'s text (and title), in one transaction with the post's row locked (an edit waits):
   * 404 for a post or version there is not (or no more), 403 for a member neither its author nor an admin,
   * 409 for the newest version (the post as it reads). An admin's removal of another's is audited.
   */
  private async purge(kind: Kind, user: Purger, id: number, n: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      takeLock(manager, kind.posts === 'threads' ? 'paste' : 'reply', [id]);
      const [post]: Array<{ authorId: number | null; label: string }> = await manager.query(
        `SELECT author_id AS "authorId", ${kind.posts === 'threads' ? 'title' : 'content'} AS label
         FROM ${kind.posts} WHERE id = $1 AND deleted_at IS NULL FOR NO KEY UPDATE`,
        [id],
      );
      if (!post) throw new NotFoundException(kind.notFound);
      const refusal = purgeRefusal(user, { authorId: post.authorId });
      if (refusal) throw new ForbiddenException(refusal);
      // purged: null when there is no version n (never, or pruned).
      const [versions]: Array<{ newest: number | null; purged: boolean | null }> = await manager.query(
        `SELECT (SELECT max(n) FROM ${kind.table} WHERE ${kind.key} = $1)::int AS newest,
           (SELECT purged_at IS NOT NULL FROM ${kind.table} WHERE ${kind.key} = $1 AND n = $2) AS purged`,
        [id, n],
      );
      // Never edited: its one version, the post itself, is the newest.
      if (n === (versions!.newest ?? 1)) throw new ConflictException(REVISIONS_MESSAGES.newestVersion);
      if (versions!.purged === null) throw new NotFoundException(REVISIONS_MESSAGES.revisionNotFound);
      if (versions!.purged) throw new NotFoundException(REVISIONS_MESSAGES.revisionRemoved);
      await manager.query(
        `UPDATE ${kind.table} SET content = NULL, ${kind.posts === 'threads' ? 'title = NULL, ' : ''}
           purged_at = now() WHERE ${kind.key} = $1 AND n = $2`,
        [id, n],
      );
      if (user.id !== post.authorId) {
        await this.audit.record(manager, user, {
          action: kind.purgeAction,
          targetType: kind.posts === 'threads' ? 'thread' : 'reply',
          targetId: id,
          targetLabel: kind.posts === 'threads' ? post.label : excerpt(post.label),
          before: { revision: n, authorId: post.authorId },
        });
      }
    });
  }

  /** 404 for a post whose paste is gone from readers (expired at this instant), as for none. */
  private async mustBeAlive(kind: Kind, id: number): Promise<void> {
    const paste = kind.posts === 'threads' ? '$1' : '(SELECT thread_id FROM replies WHERE id = $1)';
    const [alive] = await this.dataSource.query(
      `SELECT 1 FROM threads t WHERE t.id = ${paste} AND ${aliveSql('t')}`,
      [id],
    );
    if (!alive) throw new NotFoundException(kind.notFound);
  }

  private async list(kind: Kind, id: number): Promise<RevisionList> {
    await this.mustBeAlive(kind, id);
    const rows: VersionRow[] = await this.dataSource.query(
      `SELECT ${kind.version}, ${authorJson('a')} AS editor,
         ${kind.title('v')} AS title, v.purged_at IS NOT NULL AS removed, ${kind.credit}
       FROM ${kind.table} v ${authorJoin('a', 'v.editor_id')} ${kind.creditJoin}
       WHERE v.${kind.key} = $1 ORDER BY v.n DESC`,
      [id],
    );
    if (rows.length > 0) {
      return { revisions: rows.map(toRevisionSummary), pruned: prunedRanges(rows.map((row) => row.n)) };
    }
    const original = await this.original(kind, id);
    return { revisions: [toRevisionSummary(original)], pruned: [] };
  }

  private async one(kind: Kind, id: number, n: number): Promise<Revision> {
    await this.mustBeAlive(kind, id);
    const [row]: FullVersionRow[] = await this.dataSource.query(
      `SELECT ${kind.version}, ${authorJson('a')} AS editor, ${kind.title('v')} AS title, v.content, ${kind.language('v')} AS language,
         v.purged_at IS NOT NULL AS removed, ${kind.credit}
       FROM ${kind.table} v ${authorJoin('a', 'v.editor_id')} ${kind.creditJoin}
       WHERE v.${kind.key} = $1 AND v.n = $2`,
      [id, n],
    );
    if (row?.content === null) throw new NotFoundException(REVISIONS_MESSAGES.revisionRemoved);
    if (row) return { ...toRevisionSummary(row), content: row.content, language: row.language };
    // Never edited: its one version is the post; an edited post without version n has no such version.
    const original = await this.original(kind, id);
    if (n !== 1 || original.edited) throw new NotFoundException(REVISIONS_MESSAGES.revisionNotFound);
    return { ...toRevisionSummary(original), content: original.content!, language: original.language };
  }

  /** The post as its only version (404 when there is no such post). */
  private async original(kind: Kind, id: number): Promise<FullVersionRow & { edited: boolean }> {
    const [row]: Array<
      Omit<FullVersionRow, 'n' | 'linesAdded' | 'linesRemoved' | 'removed'> & { edited: boolean }
    > = await this.dataSource.query(
      `SELECT p.created_at AS "createdAt", ${authorJson('a')} AS editor, ${kind.title('p')} AS title,
           p.content, ${kind.language('p')} AS language,
           p.edited_at IS NOT NULL AS edited
         FROM ${kind.posts} p ${authorJoin('a', 'p.author_id')} WHERE p.id = $1`,
      [id],
    );
    if (!row) throw new NotFoundException(kind.notFound);
    return { ...row, n: 1, linesAdded: lineCount(row.content!), linesRemoved: 0, removed: false };
  }
}
