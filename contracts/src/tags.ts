import { z } from 'zod';

/** A paste carries at most this many tags. */
export const TAGS_PER_PASTE_MAX = 5;
/** A tag's name: lower-case letters, digits and hyphens, 2–30 of them. */
export const TAG_NAME_PATTERN = /^[a-z0-9-]{2,30}$/;

export const TAG_MESSAGES = {
  /** 400: a name outside TAG_NAME_PATTERN (after trimming and lower-casing). */
  badName: (name: string) =>
    `Tag "${name.length > 40 ? `${name.slice(0, 40)}…` : name}" must be 2–30 characters of a-z, 0-9 and -`,
  tooMany: `A paste has at most ${TAGS_PER_PASTE_MAX} tags`,
  notAList: 'tags must be a list of tag names',
  tagNotFound: 'Tag not found',
} as const;

/** One tag as written: trimmed and lower-cased, then held to TAG_NAME_PATTERN. */
export const tagNameSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.string(TAG_MESSAGES.notAList).refine((name) => TAG_NAME_PATTERN.test(name), {
    error: (issue) => TAG_MESSAGES.badName(String(issue.input)),
  }),
);

/** A paste's tags: each a tagNameSchema, repeats dropped, at most TAGS_PER_PASTE_MAX. */
export const tagsSchema = z
  .array(tagNameSchema, TAG_MESSAGES.notAList)
  .transform((names) => [...new Set(names)])
  .refine((names) => names.length <= TAGS_PER_PASTE_MAX, TAG_MESSAGES.tooMany);

/** `GET /api/tags` answers at most this many tags (the most used); with `q`, the suggestions, fewer. */
export const TAGS_LIST_MAX = 200;
export const TAG_SUGGESTIONS_MAX = 10;
/** The admin's tags screen lists at most this many (the most used first, unused ones too). */
export const ADMIN_TAGS_MAX = 500;

export const TAG_ADMIN_MESSAGES = {
  /** 409: a rename onto a name another tag has (merge it instead). */
  nameTaken: (name: string) => `Tag "${name}" exists already: merge into it instead`,
  mergeIntoItself: 'A tag cannot be merged into itself',
  renamed: 'Tag renamed',
  merged: 'Tags merged',
  deleted: 'Tag deleted',
} as const;

/** One tag as lists show it: `pasteCount` listed pastes carry it. */
export const tagSchema = z.object({
  name: z.string(),
  pasteCount: z.number().int(),
});
export type TagSummary = z.infer<typeof tagSchema>;

/** `GET /api/tags`: tags some listed paste carries, most used first (then by name). */
export const tagListSchema = z.object({ tags: z.array(tagSchema) });
export type TagList = z.infer<typeof tagListSchema>;

/** A prefix as typed (trimmed, lower-cased); anything but a string, or a blank one, is none. */
const tagPrefix = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined),
  z.string().max(30, TAG_MESSAGES.badName('…')).optional(),
);

/** `GET /api/tags?q=`: with `q`, the tags whose names start with it (the forms' suggestions). */
export const tagsQuerySchema = z.object({
  q: tagPrefix.meta({ description: 'A prefix of the names (the suggestions as one types)' }),
});
export type TagsQuery = z.output<typeof tagsQuerySchema>;

/** `PATCH /api/admin/tags/{name}`: its new name. */
export const renameTagSchema = z.object({ name: tagNameSchema });
export type RenameTagBody = z.infer<typeof renameTagSchema>;

/** `POST /api/admin/tags/{name}/merge`: the tag it goes into (kept; this one is deleted). */
export const mergeTagSchema = z.object({ into: tagNameSchema });
export type MergeTagBody = z.infer<typeof mergeTagSchema>;

/**
 * Reads `?tags=a,b` (the terminal's): undefined when absent or blank, else the names, split at commas
 * (blank pieces dropped), for tagsSchema to judge.
 */
export function tagsOfQuery(value: unknown): string[] | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
