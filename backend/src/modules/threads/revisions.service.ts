import { Injectable, NotFoundException } from '@nestjs/common';
import {
  FORUM_MESSAGES,
  type PublicAuthor,
  type Revision,
  type RevisionList,
  type RevisionSummary,
  REVISIONS_MESSAGES,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { authorJoin, authorJson } from '../users/author-sql.js';
import { lineCount } from './edits.service.js';

interface VersionRow {
  n: number;
  created_at: Date;
  editor: PublicAuthor | null;
  lines_added: number;
  lines_removed: number;
  title: string | null;
}

type FullRow = VersionRow & { content: string; language: string | null };

/** What differs between a paste's and a reply's versions: where they are kept and what they hold. */
interface Kind {
  table: 'thread_revisions' | 'reply_revisions';
  key: 'thread_id' | 'reply_id';
  /** The post itself as its one version (never edited). */
  posts: 'threads' | 'replies';
  /** The title and language columns of a version or a post as `alias` (a reply has neither). */
  title: (alias: string) => string;
  language: (alias: string) => string;
  notFound: string;
}

const THREAD: Kind = {
  table: 'thread_revisions',
  key: 'thread_id',
  posts: 'threads',
  title: (alias) => `${alias}.title`,
  language: (alias) => `${alias}.language`,
  notFound: FORUM_MESSAGES.threadNotFound,
};
const REPLY: Kind = {
  table: 'reply_revisions',
  key: 'reply_id',
  posts: 'replies',
  title: () => 'NULL::text',
  language: () => 'NULL::text',
  notFound: FORUM_MESSAGES.replyNotFound,
};

function toSummary(row: VersionRow): RevisionSummary {
  return {
    n: row.n,
    createdAt: row.created_at.toISOString(),
    editor: row.editor,
    linesAdded: row.lines_added,
    linesRemoved: row.lines_removed,
    title: row.title,
  };
}

/**
 * The versions of a paste or a reply (issue 16), open to whoever may read the post (anyone). A post never
 * edited has one version, the post itself (n = 1, by its author, every line added).
 */
@Injectable()
export class RevisionsService {
  constructor(private readonly dataSource: DataSource) {}

  threadRevisions(threadId: number): Promise<RevisionList> {
    return this.list(THREAD, threadId);
  }

  threadRevision(threadId: number, n: number): Promise<Revision> {
    return this.one(THREAD, threadId, n);
  }

  replyRevisions(replyId: number): Promise<RevisionList> {
    return this.list(REPLY, replyId);
  }

  replyRevision(replyId: number, n: number): Promise<Revision> {
    return this.one(REPLY, replyId, n);
  }

  private async list(kind: Kind, id: number): Promise<RevisionList> {
    const rows: VersionRow[] = await this.dataSource.query(
      `SELECT v.n, v.created_at, ${authorJson('a')} AS editor, v.lines_added, v.lines_removed,
         ${kind.title('v')} AS title
       FROM ${kind.table} v ${authorJoin('a', 'v.editor_id')}
       WHERE v.${kind.key} = $1 ORDER BY v.n DESC`,
      [id],
    );
    if (rows.length > 0) return { revisions: rows.map(toSummary) };
    const original = await this.original(kind, id);
    return { revisions: [toSummary(original)] };
  }

  private async one(kind: Kind, id: number, n: number): Promise<Revision> {
    const [row]: FullRow[] = await this.dataSource.query(
      `SELECT v.n, v.created_at, ${authorJson('a')} AS editor, v.lines_added, v.lines_removed,
         ${kind.title('v')} AS title, v.content, ${kind.language('v')} AS language
       FROM ${kind.table} v ${authorJoin('a', 'v.editor_id')}
       WHERE v.${kind.key} = $1 AND v.n = $2`,
      [id, n],
    );
    if (row) return { ...toSummary(row), content: row.content, language: row.language };
    // Never edited: its one version is the post; an edited post without version n has no such version.
    const original = await this.original(kind, id);
    if (n !== 1 || original.edited) throw new NotFoundException(REVISIONS_MESSAGES.revisionNotFound);
    return { ...toSummary(original), content: original.content, language: original.language };
  }

  /** The post as its only version (404 when there is no such post). */
  private async original(kind: Kind, id: number): Promise<FullRow & { edited: boolean }> {
    const [row]: Array<Omit<FullRow, 'n' | 'lines_added' | 'lines_removed'> & { edited: boolean }> =
      await this.dataSource.query(
        `SELECT p.created_at, ${authorJson('a')} AS editor, ${kind.title('p')} AS title,
           p.content, ${kind.language('p')} AS language,
           p.edited_at IS NOT NULL AS edited
         FROM ${kind.posts} p ${authorJoin('a', 'p.author_id')} WHERE p.id = $1`,
        [id],
      );
    if (!row) throw new NotFoundException(kind.notFound);
    return { ...row, n: 1, lines_added: lineCount(row.content), lines_removed: 0 };
  }
}
