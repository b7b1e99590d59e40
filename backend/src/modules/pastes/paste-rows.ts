import {
  type PasteRef,
  type PublicAuthor,
  type ReplyView,
  type RevisionSummary,
  type PasteCard,
  TRASH_DAYS,
  type TrashEntry,
} from '@termpaste/contracts';
import type { Row } from '../../infra/database/columns.js';
import { excerpt } from '../audit/audit.service.js';
import type { Paste } from './entities/paste.entity.js';
import type { PasteRevision } from './entities/paste-revision.entity.js';
import type { Reply } from './entities/reply.entity.js';
import { linesHashOf } from './line-comments.js';
import type { ReviewedPost } from './review-posts.js';
import { refOf, type RefRow } from './visibility.js';

/*
 * The pastes module's rows, as its raw SQL reads them (entity property names, computed values added),
 * and the one place they become contracts' shapes.
 */

/** A paste's own columns on its card (cards.ts selects them with the joins). */
export const CARD_PROPERTIES = [
  'id',
  'title',
  'createdAt',
  'viewCount',
  'voteScore',
  'replyCount',
  'isPinned',
  'isLocked',
  'isFeatured',
  'lastReplyAt',
  'expiresAt',
  'tags',
] as const;

export type CardRow = Row<Paste, (typeof CARD_PROPERTIES)[number]> &
  RefRow & { createdMicros: string; author: PublicAuthor | null; lastReplyAuthor: PublicAuthor | null };

export function toCard(row: CardRow): PasteCard {
  return {
    id: refOf(row.id, row),
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    author: row.author,
    viewCount: row.viewCount,
    voteScore: row.voteScore,
    replyCount: row.replyCount,
    isPinned: row.isPinned,
    isLocked: row.isLocked,
    isFeatured: row.isFeatured,
    lastReplyAt: row.lastReplyAt?.toISOString() ?? null,
    lastReplyAuthor: row.lastReplyAuthor,
    visibility: row.pasteVisibility,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    tags: row.tags,
  };
}

/** A reply's own columns on its paste's page. */
export const PAGE_REPLY_PROPERTIES = [
  'id',
  'parentId',
  'content',
  'createdAt',
  'editedAt',
  'voteScore',
  'anchorFrom',
  'anchorTo',
  'anchorVersion',
  'anchorHash',
  'suggestion',
  'suggestionApplied',
] as const;

export type PageReplyRow = Row<Reply, (typeof PAGE_REPLY_PROPERTIES)[number]> & {
  deleted: boolean;
  hidden: boolean;
  author: PublicAuthor | null;
};

/**
 * A reply as the shared page of paste `pasteRef` shows it: a deleted one is a placeholder that tells
 * nothing but its place in the tree; a hidden one's text is nobody's here (its author reads its versions).
 */
export function toReplyView(
  row: PageReplyRow,
  pasteRef: PasteRef,
  pasteLines: () => readonly string[],
): ReplyView {
  const shown = !row.deleted && !row.hidden;
  return {
    ...(shown ? lineCommentView(row, pasteLines) : {}),
    id: row.id,
    threadId: pasteRef,
    parentId: row.parentId,
    content: row.deleted || row.hidden ? '' : row.content,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.deleted ? null : (row.editedAt?.toISOString() ?? null),
    author: row.deleted ? null : row.author,
    voteScore: row.deleted ? 0 : row.voteScore,
    myVote: null,
    deleted: row.deleted,
    hidden: !row.deleted && row.hidden,
  };
}

/** A line comment's fields of a reply's view: none for an ordinary reply. */
function lineCommentView(
  row: PageReplyRow,
  pasteLines: () => readonly string[],
): Pick<ReplyView, 'anchor' | 'outdated' | 'suggestion' | 'suggestionApplied'> {
  if (row.anchorFrom === null || row.anchorTo === null || row.anchorVersion === null) return {};
  return {
    anchor: { fromLine: row.anchorFrom, toLine: row.anchorTo, version: row.anchorVersion },
    outdated: linesHashOf(pasteLines(), row.anchorFrom, row.anchorTo) !== row.anchorHash,
    ...(row.suggestion === null
      ? {}
      : { suggestion: row.suggestion, suggestionApplied: row.suggestionApplied }),
  };
}

/** A version's own columns (a paste's and a reply's versions share them). */
export const VERSION_PROPERTIES = ['n', 'createdAt', 'linesAdded', 'linesRemoved'] as const;

/** A version in a list; a reply's has a NULL title. */
export type VersionRow = Row<PasteRevision, (typeof VERSION_PROPERTIES)[number] | 'title'> & {
  editor: PublicAuthor | null;
  removed: boolean;
  /** A paste's version made by applying a suggestion: its suggester, and the line comment. */
  suggestedBy?: PublicAuthor | null;
  suggestionReplyId?: number | null;
};

/** A version with its text; a reply's has a NULL language. */
export type FullVersionRow = VersionRow & Row<PasteRevision, 'content' | 'language'>;

export function toRevisionSummary(row: VersionRow): RevisionSummary {
  return {
    n: row.n,
    createdAt: row.createdAt.toISOString(),
    editor: row.editor,
    linesAdded: row.linesAdded,
    linesRemoved: row.linesRemoved,
    title: row.title,
    removed: row.removed,
    ...(row.suggestionReplyId
      ? { suggestedBy: row.suggestedBy ?? null, suggestionReplyId: row.suggestionReplyId }
      : {}),
  };
}

/** A post in the trash (a paste, or a reply with its paste's title and ref). */
export type TrashRow = Row<Reply, 'id' | 'pasteId' | 'content'> &
  Row<Paste, 'title'> &
  RefRow & {
    kind: 'paste' | 'reply';
    deletedAt: Date;
    deletedMicros: string;
    author: PublicAuthor | null;
    deletedBy: PublicAuthor | null;
  };

/** `excerptMax`: how much of the text the entry shows (the SQL cuts it there too). */
export function toTrashEntry(row: TrashRow, excerptMax: number): TrashEntry {
  return {
    kind: row.kind,
    id: row.id,
    threadId: row.pasteId,
    threadRef: refOf(row.pasteId, row),
    visibility: row.pasteVisibility,
    title: row.title,
    excerpt: excerpt(row.content, excerptMax),
    author: row.author,
    deletedAt: row.deletedAt.toISOString(),
    deletedBy: row.deletedBy,
    purgeAt: new Date(row.deletedAt.getTime() + TRASH_DAYS * 86_400_000).toISOString(),
  };
}

/** A paste or a reply under review (a paste: its own number as `pasteId`, no parent, no language). */
export type ReviewedRow = Row<Reply, 'id' | 'authorId' | 'pasteId' | 'parentId' | 'content' | 'createdAt'> &
  Row<Paste, 'title' | 'language'> &
  RefRow & { alive: boolean; hidden: boolean };

export function toReviewedPost({ alive, pasteId, ...row }: ReviewedRow): ReviewedPost {
  return {
    id: row.id,
    authorId: row.authorId,
    title: row.title,
    content: row.content,
    language: row.language,
    threadRef: alive ? refOf(pasteId, row) : null,
    threadId: pasteId,
    parentId: row.parentId,
    createdAt: row.createdAt,
    gone: !alive,
    hidden: row.hidden,
  };
}
