import { createHash } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import {
  anchoredText,
  applySuggestion,
  type CreateReplyBody,
  LINE_COMMENT_MESSAGES,
  lineCommentRefusal,
  pasteLines,
  suggestionLines,
} from '@termpaste/contracts';
import type { EntityManager } from 'typeorm';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { takeLock } from '../../infra/database/lock-order.js';
import { Reply } from './entities/reply.entity.js';

/** A hash of lines `from`..`to` of `text`: a later version that changed them hashes differently. */
export function linesHash(text: string, from: number, to: number): string {
  return hashOf(anchoredText(text, from, to));
}

/** linesHash of a text already split (pasteLines). */
export function linesHashOf(lines: readonly string[], from: number, to: number): string {
  return hashOf(lines.slice(from - 1, to).join('\n'));
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url');

/** A line comment's columns of `replies` (all null for an ordinary reply). */
export interface AnchorColumns {
  anchorFrom: number | null;
  anchorTo: number | null;
  anchorVersion: number | null;
  anchorHash: string | null;
  suggestion: string | null;
}

const NO_ANCHOR: AnchorColumns = {
  anchorFrom: null,
  anchorTo: null,
  anchorVersion: null,
  anchorHash: null,
  suggestion: null,
};

/** 400 unless a reply's line-comment fields go together (lineCommentRefusal). */
export function checkLineComment(body: CreateReplyBody): void {
  const refusal = lineCommentRefusal(body);
  if (refusal) throw new BadRequestException(refusal);
}

/**
 * The text of version `version` of paste `threadId`, or null when it has no such version to read (never
 * had, pruned, or removed). A paste never edited has one: its text.
 */
export async function versionText(
  manager: EntityManager,
  threadId: number,
  version: number,
): Promise<string | null> {
  const [row]: Array<{ newest: number; kept: string | null; current: string }> = await manager.query(
    `SELECT COALESCE((SELECT max(n) FROM thread_revisions WHERE thread_id = $1), 1)::int AS newest,
       (SELECT content FROM thread_revisions WHERE thread_id = $1 AND n = $2) AS kept,
       (SELECT content FROM threads WHERE id = $1) AS current`,
    [threadId, version],
  );
  return row!.newest === version ? row!.current : row!.kept;
}

/**
 * A new reply's line-comment columns, in its transaction on the locked paste `threadId`: 400 when the
 * lines are not within that version, or the suggestion changes nothing.
 */
export async function anchorColumns(
  manager: EntityManager,
  threadId: number,
  body: CreateReplyBody,
): Promise<AnchorColumns> {
  checkLineComment(body);
  const anchor = body.anchor;
  if (!anchor) return NO_ANCHOR;
  const text = await versionText(manager, threadId, anchor.version);
  if (text === null) throw new BadRequestException(LINE_COMMENT_MESSAGES.versionUnknown(anchor.version));
  const lines = pasteLines(text);
  if (anchor.toLine > lines.length) {
    throw new BadRequestException(LINE_COMMENT_MESSAGES.linesOutside(lines.length, anchor.version));
  }
  const suggestion = body.suggestion ?? null;
  if (suggestion !== null) {
    const old = lines.slice(anchor.fromLine - 1, anchor.toLine);
    const next = suggestionLines(suggestion);
    if (old.length === next.length && old.every((line, i) => line === next[i])) {
      throw new BadRequestException(LINE_COMMENT_MESSAGES.suggestionSame);
    }
  }
  return {
    anchorFrom: anchor.fromLine,
    anchorTo: anchor.toLine,
    anchorVersion: anchor.version,
    anchorHash: linesHash(text, anchor.fromLine, anchor.toLine),
    suggestion,
  };
}

/** What applying a line comment's suggestion makes: the paste's new text, and whom it credits. */
export interface AppliedSuggestion {
  content: string;
  replyId: number;
  suggestedBy: number | null;
}

/**
 * The paste's text (now `current`) with reply `replyId`'s suggestion applied, in the edit's transaction
 * (paste and reply locked): 404 for no live comment of this paste, 422 for one without a suggestion or
 * that would leave the paste blank, 409 when applied before or a later version changed its lines.
 */
export async function suggestedContent(
  manager: EntityManager,
  threadId: number,
  current: string,
  replyId: number,
): Promise<AppliedSuggestion> {
  takeLock(manager, 'reply', [replyId]);
  const [row]: Array<
    Row<
      Reply,
      | 'authorId'
      | 'anchorFrom'
      | 'anchorTo'
      | 'anchorVersion'
      | 'anchorHash'
      | 'suggestion'
      | 'suggestionApplied'
    >
  > = await manager.query(
    `SELECT ${SUGGESTION_SELECT} FROM replies r
     WHERE r.id = $1 AND r.thread_id = $2 AND r.deleted_at IS NULL AND r.hidden_at IS NULL
     FOR NO KEY UPDATE`,
    [replyId, threadId],
  );
  if (!row) throw new NotFoundException(LINE_COMMENT_MESSAGES.commentNotFound);
  const { anchorFrom: from, anchorTo: to, anchorVersion: version, suggestion } = row;
  if (suggestion === null || from === null || to === null || version === null) {
    throw new UnprocessableEntityException(LINE_COMMENT_MESSAGES.noSuggestion);
  }
  if (row.suggestionApplied !== null) {
    throw new ConflictException(LINE_COMMENT_MESSAGES.alreadyApplied(row.suggestionApplied));
  }
  if (linesHash(current, from, to) !== row.anchorHash) {
    throw new ConflictException(LINE_COMMENT_MESSAGES.linesChanged(version));
  }
  const content = applySuggestion(current, from, to, suggestion);
  if (content.trim() === '') throw new UnprocessableEntityException(LINE_COMMENT_MESSAGES.wouldEmpty);
  return { content, replyId, suggestedBy: row.authorId };
}

const SUGGESTION_SELECT = selectColumns(Reply, 'r', [
  'authorId',
  'anchorFrom',
  'anchorTo',
  'anchorVersion',
  'anchorHash',
  'suggestion',
  'suggestionApplied',
]);
