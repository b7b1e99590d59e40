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
  z
    .string(TAG_MESSAGES.notAList)
    .refine((name) => TAG_NAME_PATTERN.test(name), {
      error: (issue) => TAG_MESSAGES.badName(String(issue.input)),
    }),
);

/** A paste's tags: each a tagNameSchema, repeats dropped, at most TAGS_PER_PASTE_MAX. */
export const tagsSchema = z
  .array(tagNameSchema, TAG_MESSAGES.notAList)
  .transform((names) => [...new Set(names)])
  .refine((names) => names.length <= TAGS_PER_PASTE_MAX, TAG_MESSAGES.tooMany);
