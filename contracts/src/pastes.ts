import { z } from 'zod';
import { expiresInSchema, pasteRefSchema, visibilitySchema } from './visibility.js';
import { TAGS_PER_PASTE_MAX, tagsOfQuery, tagsSchema } from './tags.js';

/**
 * A paste's content: at most this many bytes of UTF-8 unless PASTE_MAX_BYTES says otherwise (1 MiB), on
 * `POST /api/pastes` and the web form (`POST /api/threads`) alike.
 */
export const PASTE_MAX_BYTES_DEFAULT = 1_048_576;

/** `POST /api/pastes?lang=` (and `language` in a JSON body): a language name is at most this long. */
export const PASTE_LANGUAGE_MAX = 64;

/** How a byte count reads in a message: `1 MiB`, `512 KiB`, `1000 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_048_576 && bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

/** The texts of a paste's intake (`POST /api/pastes`, and the web form's size limit). */
export const PASTE_MESSAGES = {
  /** 413: the content (or the request that carries it) is larger than PASTE_MAX_BYTES. */
  tooLarge: (maxBytes: number) => {
    const size = formatBytes(maxBytes);
    return `Paste is too large: at most ${/bytes?$/.test(size) ? size : `${size} (${maxBytes} bytes)`}`;
  },
  /** 415: the bytes are not UTF-8 text. */
  notUtf8: 'Paste must be UTF-8 text: the content is not valid UTF-8 (a binary file?)',
  /** 415: the content holds NUL bytes (which no text has). */
  nulByte: 'Paste must be text: the content holds NUL bytes (a binary file?)',
  /** 400: `?lang=` (or `language`) names no language the paste page can highlight. */
  unknownLanguage: (name: string) =>
    `Unknown language "${name.length > PASTE_LANGUAGE_MAX ? `${name.slice(0, PASTE_LANGUAGE_MAX)}…` : name}": use a highlight.js language name or alias (python, js, bash, …)`,
  /** 400: a form (multipart/form-data) without its `file`. */
  fileMissing: 'Send the paste as the request body, or as a form file named "file" (curl -F file=@path)',
  /** 400: a multipart body that cannot be read. */
  formUnreadable: 'The form (multipart/form-data) cannot be read',
  /** 400: a JSON body that is not an object with `content`. */
  jsonShape: 'A JSON body is {"title"?, "content", "language"?}',
} as const;

/**
 * `POST /api/pastes` answers `{id, url, rawUrl}` when the client asks for JSON (`Accept:
 * application/json`), else the paste's URL and a newline as text/plain.
 */
export const createdPasteSchema = z.object({
  /** Its number while public, else its unguessable key. */
  id: pasteRefSchema,
  /** The paste's page: `<public URL>/thread/{id}`. */
  url: z.string(),
  /** Its exact text: `<public URL>/api/threads/{id}/raw`. */
  rawUrl: z.string(),
});
export type CreatedPaste = z.infer<typeof createdPasteSchema>;

/** One query parameter's text, or undefined when absent, empty, repeated or nested (as queries.ts reads them). */
const present = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** `POST /api/pastes?title=&lang=`: each optional; a JSON body's or a form's own field wins over it. */
export const createPasteQuerySchema = z.object({
  title: z.preprocess(present, z.string().optional()).meta({
    description:
      'The title (default: the file name of a form file, else the first non-blank line, cut to 200)',
  }),
  lang: z.preprocess(present, z.string().optional()).meta({
    description:
      'A highlight.js language name or alias (`python`, `js`); default: guessed from a form file name, else Markdown',
  }),
  visibility: z.preprocess(present, visibilitySchema.optional()).meta({
    description:
      'Who may read it: `public` (default), `unlisted` (anyone with the link) or `private` (you only)',
  }),
  expiresIn: z.preprocess(present, expiresInSchema.optional()).meta({
    description: 'How long it lives: `10m`, `1h`, `1d`, `1w`, `1mo` or `never` (default)',
  }),
  burnAfterReading: z
    .preprocess(
      present,
      z.enum(['true', 'false', '1', '0'], 'burnAfterReading must be true or false').optional(),
    )
    .transform((value) => (value === undefined ? undefined : value === 'true' || value === '1'))
    .meta({ description: 'With `true`, deleted the moment its first reader (not you) is shown it' }),
  tags: z.preprocess(tagsOfQuery, tagsSchema.optional()).meta({
    description: `Its tags, comma-separated (\`?tags=python,ci\`): each 2–30 of a-z, 0-9 and -, at most ${TAGS_PER_PASTE_MAX}`,
  }),
});
export type CreatePasteQuery = z.infer<typeof createPasteQuerySchema>;
