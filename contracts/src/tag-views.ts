import { z } from 'zod';
import { pasteCardSchema } from './paste-views.js';
import { tagSchema } from './tags.js';

/** `GET /api/tags/{name}`: the tag, and its listed pastes newest first, a page after the cursor (as home). */
export const tagPageSchema = z.object({
  tag: tagSchema,
  threads: z.array(pasteCardSchema),
  nextCursor: z.string().nullable(),
});
export type TagPage = z.infer<typeof tagPageSchema>;

/** `GET /api/languages/{name}`: the listed pastes in a language (its canonical name), newest first. */
export const languagePageSchema = z.object({
  language: z.string(),
  threads: z.array(pasteCardSchema),
  nextCursor: z.string().nullable(),
});
export type LanguagePage = z.infer<typeof languagePageSchema>;

/** `GET /api/admin/tags?q=`: every tag, unused ones too, most used first. */
export const adminTagListSchema = z.object({ tags: z.array(tagSchema) });
export type AdminTagList = z.infer<typeof adminTagListSchema>;
