import { z } from 'zod';
import { createReplySchema, createThreadSchema, FORUM_MESSAGES, publicAuthorSchema } from './forum.js';
import { rowId } from './text.js';

/*
 * Edits with history (issue 16): the author of a paste or a reply, or an admin, edits it; every version
 * is kept (n = 1 is the original) and any two can be compared line by line.
 */

export const REVISIONS_MESSAGES = {
  /** 403: a member who is neither the post's author nor an admin. */
  notYourPost: 'Only its author or an admin can edit this post',
  /** 404: `GET …/revisions/{n}` of a version the post never had. */
  revisionNotFound: 'Revision not found',
} as const;

/**
 * Who may edit a post, the one home of the rule: null when `editor` may edit a post by `authorId` (a
 * paste, or a reply under a paste that is `locked` or not), else the message of the server's 403. The
 * author or an admin; under a lock, an admin only. The server refuses with it, the paste page offers
 * EDIT only where it allows.
 */
export function editRefusal(
  editor: { id: number; isAdmin: boolean },
  post: { authorId: number | null; locked: boolean },
): string | null {
  if (!editor.isAdmin && post.authorId !== editor.id) return REVISIONS_MESSAGES.notYourPost;
  if (!editor.isAdmin && post.locked) return FORUM_MESSAGES.threadLocked;
  return null;
}

/**
 * `PATCH /api/threads/{id}`: any of the paste's title, content and language, with the rules of a new
 * paste (createThreadSchema's; the content at most PASTE_MAX_BYTES). An absent field stays as it is;
 * `language: null` (or `markdown`) makes it Markdown again.
 */
export const editThreadSchema = createThreadSchema.partial();
export type EditThreadBody = z.infer<typeof editThreadSchema>;

/** `PATCH /api/replies/{id}`: the reply's new content, with the rules of a new reply. */
export const editReplySchema = createReplySchema.pick({ content: true });
export type EditReplyBody = z.infer<typeof editReplySchema>;

/** The answer to `PATCH /api/threads/{id}`: the paste as it is now (unchanged when nothing changed). */
export const editedThreadSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  language: z.string().nullable(),
  /** When it was last edited; null while it never was. */
  editedAt: z.string().nullable(),
  /** How many versions it has (1: never edited). */
  revisions: z.number().int(),
});
export type EditedThread = z.infer<typeof editedThreadSchema>;

/** The answer to `PATCH /api/replies/{id}`. */
export const editedReplySchema = z.object({
  id: z.number().int(),
  threadId: z.number().int(),
  content: z.string(),
  editedAt: z.string().nullable(),
  revisions: z.number().int(),
});
export type EditedReply = z.infer<typeof editedReplySchema>;

/** One version of a paste or a reply in its history (`GET …/revisions`, newest first). */
export const revisionSummarySchema = z.object({
  /** 1 is the original, each edit the next number. */
  n: z.number().int(),
  createdAt: z.string(),
  /** Who wrote this version (the author, or the admin who edited); null once their account is gone. */
  editor: publicAuthorSchema.nullable(),
  /** Lines added and removed against the version before (the original: its lines, added). */
  linesAdded: z.number().int(),
  linesRemoved: z.number().int(),
  /** The paste's title in this version; null for a reply. */
  title: z.string().nullable(),
});
export type RevisionSummary = z.infer<typeof revisionSummarySchema>;

export const revisionListSchema = z.object({ revisions: z.array(revisionSummarySchema) });
export type RevisionList = z.infer<typeof revisionListSchema>;

/** `GET …/revisions/{n}`: one version's full text. */
export const revisionSchema = revisionSummarySchema.extend({
  content: z.string(),
  /** The paste's language in this version (null: Markdown, and always for a reply). */
  language: z.string().nullable(),
});
export type Revision = z.infer<typeof revisionSchema>;

/** The `{n}` of `…/revisions/{n}`: a version number. */
export const revisionNumber = rowId;

/**
 * The lines a text is compared by: split at line feeds (a carriage return stays part of its line), a
 * final line feed ending the last line rather than starting another. Both ends count with it.
 */
export function revisionLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/** Lines added and removed in a list of changes (jsdiff's diffArrays of revisionLines). */
export function countLineChanges(
  changes: ReadonlyArray<{ added?: boolean; removed?: boolean; count?: number }>,
): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const change of changes) {
    if (change.added) added += change.count ?? 0;
    else if (change.removed) removed += change.count ?? 0;
  }
  return { added, removed };
}
