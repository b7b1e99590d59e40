import { z } from 'zod';
import { createReplySchema, createPasteSchema, POST_MESSAGES, publicAuthorSchema } from './paste-views.js';
import { rowId } from './text.js';
import { pasteRefSchema, visibilitySchema } from './visibility.js';

/*
 * Edits with history: the author of a paste or a reply, or an admin, edits it; the original
 * (n = 1) and the newest VERSIONS_KEPT_NEWEST versions are kept, any two can be compared line by line,
 * and the author or an admin may remove any but the newest.
 */

export const REVISIONS_MESSAGES = {
  /** 403: a member who is neither the post's author nor an admin. */
  notYourPost: 'Only its author or an admin can edit this post',
  /** 404: `GET …/revisions/{n}` of a version the post never had, or one pruned. */
  revisionNotFound: 'Revision not found',
  /** 404: a version its author or an admin removed (`DELETE …/revisions/{n}`). */
  revisionRemoved: 'This version was removed',
  /** 403: removing a version of another member's post. */
  notYourVersion: 'Only its author or an admin can remove a version of this post',
  /** 409: the newest version is the post as it reads now. */
  newestVersion: 'The newest version cannot be removed: edit the post instead',
} as const;

/** `v2`, `v2 and v3`, `v2, v3 and v5`: version numbers in a sentence. */
export function versionNames(ns: readonly number[]): string {
  const names = ns.map((n) => `v${n}`);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** What the revisions screen and the edit forms say of pruned and removed versions. */
export const REVISIONS_TEXTS = {
  /** A gap in the history: the versions an edit pruned. */
  pruned: (from: number, to: number) =>
    from === to ? `version ${from} pruned` : `versions ${from}\u2013${to} pruned`,
  /** The versions between the two compared that are not there (pruned or removed). */
  between: (pruned: string[], removed: number[]) =>
    `Not shown between these two: ${[...pruned, ...(removed.length ? [`${versionNames(removed)} removed`] : [])].join('; ')}.`,
  removedVersion: 'removed',
  purgeLabel: (n: number) => `Remove version ${n}`,
  purgeTitle: (n: number) => `Remove version ${n}?`,
  purgeDescription: 'Its text is deleted for good; the history shows that a version was removed.',
  purgeConfirm: 'REMOVE',
  purged: (n: number) => `Version ${n} removed`,
  /** After an edit that took a secret out: the older versions that still hold it. */
  offerTitle: 'The secret is still in the history',
  offerDescription: (ns: readonly number[]) =>
    `${versionNames(ns)} still ${ns.length === 1 ? 'holds' : 'hold'} the secret you removed, readable by anyone. Purge the old ${ns.length === 1 ? 'version' : 'versions'}?`,
  offerConfirm: (ns: readonly number[]) => `PURGE THE OLD ${ns.length === 1 ? 'VERSION' : 'VERSIONS'}`,
  offerKeep: (ns: readonly number[]) => (ns.length === 1 ? 'KEEP IT' : 'KEEP THEM'),
  offerDone: (ns: readonly number[]) => `${versionNames(ns)} removed`,
  offerFailed: 'Could not remove the old versions',
} as const;

/**
 * The versions a post keeps: the original (n = 1) and the newest VERSIONS_KEPT_NEWEST; an edit prunes
 * those in between, and the history names the pruned numbers.
 */
export const VERSIONS_KEPT_NEWEST = 50;

/**
 * Who may remove a version of a post (`DELETE …/revisions/{n}`): null when `user` may (its author, or
 * an admin), else the server's 403 message. A lock does not stop it: removing adds nothing.
 */
export function purgeRefusal(
  user: { id: number; isAdmin: boolean },
  post: { authorId: number | null },
): string | null {
  return user.isAdmin || post.authorId === user.id ? null : REVISIONS_MESSAGES.notYourVersion;
}

/**
 * Who may edit a post, the one home of the rule: null when allowed, else the server's 403 message.
 * The author or an admin; under a lock, an admin only.
 */
export function editRefusal(
  editor: { id: number; isAdmin: boolean },
  post: { authorId: number | null; locked: boolean },
): string | null {
  if (!editor.isAdmin && post.authorId !== editor.id) return REVISIONS_MESSAGES.notYourPost;
  if (!editor.isAdmin && post.locked) return POST_MESSAGES.pasteLocked;
  return null;
}

/**
 * `PATCH /api/threads/{id}`: any of the paste's title, content and language, with the rules of a new
 * paste (createPasteSchema's; the content at most PASTE_MAX_BYTES). An absent field stays as it is;
 * `language: null` (or `markdown`) makes it Markdown again.
 */
export const editPasteSchema = createPasteSchema.partial();
export type EditPasteBody = z.infer<typeof editPasteSchema>;

/** `PATCH /api/replies/{id}`: the reply's new content, with the rules of a new reply. */
export const editReplySchema = createReplySchema.pick({ content: true });
export type EditReplyBody = z.infer<typeof editReplySchema>;

/** The answer to `PATCH /api/threads/{id}`: the paste as it is now (unchanged when nothing changed). */
export const editedPasteSchema = z.object({
  /** Its ref after the edit (a change of visibility may change it: visibility.ts). */
  id: pasteRefSchema,
  visibility: visibilitySchema,
  expiresAt: z.string().nullable(),
  burnAfterReading: z.boolean(),
  /** Its tags, in its author's order (an edit of them makes no version). */
  tags: z.array(z.string()),
  title: z.string(),
  content: z.string(),
  language: z.string().nullable(),
  /** When it was last edited; null while it never was. */
  editedAt: z.string().nullable(),
  /** The number of its newest version (1: never edited). */
  revisions: z.number().int(),
  /**
   * Older versions that still hold a possible secret this edit removed (the text before it had it, the new
   * text has it no more), oldest first: the author may remove them (`DELETE …/revisions/{n}`). Usually empty.
   */
  secretVersions: z.array(z.number().int()),
});
export type EditedPaste = z.infer<typeof editedPasteSchema>;

/** The answer to `PATCH /api/replies/{id}`. */
export const editedReplySchema = z.object({
  id: z.number().int(),
  threadId: pasteRefSchema,
  content: z.string(),
  editedAt: z.string().nullable(),
  revisions: z.number().int(),
  secretVersions: z.array(z.number().int()),
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
  /** The paste's title in this version; null for a reply, and for a removed version. */
  title: z.string().nullable(),
  /** Its author or an admin removed it: its text reads 404 (REVISIONS_MESSAGES.revisionRemoved). */
  removed: z.boolean(),
  /** A paste's version made by applying a line comment's suggestion: who suggested it (null once gone). */
  suggestedBy: publicAuthorSchema.nullable().optional(),
  /** That line comment (a reply of the paste). */
  suggestionReplyId: z.number().int().nullable().optional(),
});
export type RevisionSummary = z.infer<typeof revisionSummarySchema>;

/** Versions from `from` to `to` (both included) that an edit pruned (VERSIONS_KEPT_NEWEST). */
export const prunedRangeSchema = z.object({ from: z.number().int(), to: z.number().int() });
export type PrunedRange = z.infer<typeof prunedRangeSchema>;

export const revisionListSchema = z.object({
  revisions: z.array(revisionSummarySchema),
  /** The pruned ranges, newest first (empty while none was). */
  pruned: z.array(prunedRangeSchema),
});
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
