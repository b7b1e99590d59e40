import { z } from 'zod';
import { AUDIT_ACTIONS } from './admin.js';
import { MAIL_PREFERENCE_MESSAGES } from './mail-preferences.js';
import { POST_MESSAGES, SEARCH_QUERY_MAX, USER_FILTER_MAX } from './paste-views.js';
import { parseSearchQuery } from './search-query.js';

/*
 * The query strings of the API's GET routes, also the OpenAPI document's query parameters. A 400 is the
 * text of the first problem, as written here. A parameter given twice or nested counts as absent.
 */

/** Longest text a filter (`q`) of the admin lists may be. */
export const ADMIN_FILTER_MAX = 64;

/** The 400s of a bad query string. */
export const QUERY_MESSAGES = {
  userFilterTooLong: `The name filter must be at most ${USER_FILTER_MAX} characters`,
  adminFilterTooLong: `The filter must be at most ${ADMIN_FILTER_MAX} characters`,
  unknownAuditAction: `Unknown action: use one of ${AUDIT_ACTIONS.join(', ')}`,
} as const;

/** One parameter's text, or undefined when absent, empty, repeated or nested. */
const present = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * A text filter or search: NUL characters dropped (PostgreSQL cannot take them, and no name or word holds
 * one), trimmed; absent is empty.
 */
const cleanText = (value: unknown): string =>
  typeof value === 'string' ? value.replaceAll('\0', '').trim() : '';

/**
 * At most `max` UTF-16 units, as the API has always counted (zod's `.max()` counts code points: an emoji
 * would count once where the API counts twice). The document says `maxLength`, as zod's `.max()` would.
 */
const atMost = (max: number, message: string) =>
  z
    .string()
    .refine((text) => text.length <= max, { error: message })
    .meta({ maxLength: max });

/**
 * A text filter (`q`) of a list: at most `max`, absent or empty for everyone (a default, so that the
 * document does not call it required).
 */
const textFilter = (max: number, message: string) =>
  z.preprocess(cleanText, atMost(max, message)).default('');

/** `cursor`: where the previous page ended (its `nextCursor`); absent for the first page. */
const cursor = z
  .preprocess(present, z.string().optional())
  .meta({ description: 'Where the previous page ended (its `nextCursor`); absent for the first page' });

/** The query of a keyset-paged list: only `cursor`. */
export const cursorQuerySchema = z.object({ cursor });
export type CursorQuery = z.output<typeof cursorQuerySchema>;

/** A search's page: 1 to 6 digits. */
const PAGE = /^\d{1,6}$/;

/** `GET /api/search`: the words (required), and the page (1-based; anything but 1 to 6 digits is 1). */
export const searchQuerySchema = z.object({
  q: z
    .preprocess(
      cleanText,
      z
        .string()
        .min(1, { error: POST_MESSAGES.searchQueryRequired })
        .refine((text) => text.length <= SEARCH_QUERY_MAX, { error: POST_MESSAGES.searchQueryTooLong })
        // An operator with a bad value (a bad date, sort:xyz) is a 400 with the parser's text.
        .superRefine((text, ctx) => {
          if (text.length > SEARCH_QUERY_MAX) return;
          const parsed = parseSearchQuery(text);
          if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
        })
        .meta({ maxLength: SEARCH_QUERY_MAX }),
    )
    .meta({
      description: `The words to look for (at most ${SEARCH_QUERY_MAX} characters), with operators: "exact phrase", -word, user:name, tag:name, lang:python, in:title, after:YYYY-MM-DD, before:YYYY-MM-DD, is:featured, sort:new|top|relevance`,
    }),
  page: z
    .preprocess(
      (value) => (typeof value === 'string' && PAGE.test(value) ? value : '1'),
      z.string().regex(PAGE),
    )
    .transform((digits) => Math.max(Number(digits), 1))
    .meta({ description: 'Page number, from 1' }),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** `GET /api/users`: a part of the username (empty: everyone), and the cursor. */
export const usersQuerySchema = z.object({
  q: textFilter(USER_FILTER_MAX, QUERY_MESSAGES.userFilterTooLong).meta({
    description: 'Keeps only members whose username contains this',
  }),
  cursor,
});
export type UsersQuery = z.output<typeof usersQuerySchema>;

const adminFilter = textFilter(ADMIN_FILTER_MAX, QUERY_MESSAGES.adminFilterTooLong);

/** `GET /api/admin/users`: a part of the username or e-mail, and the cursor. */
export const adminUsersQuerySchema = z.object({
  q: adminFilter.meta({ description: 'Keeps only members whose username or e-mail address contains this' }),
  cursor,
});
export type AdminUsersQuery = z.output<typeof adminUsersQuerySchema>;

/**
 * `GET /api/admin/audit`: one action (absent or empty: all), a part of the actor's or target's name, and
 * the cursor; checked in that order.
 */
export const auditQuerySchema = z.object({
  action: z
    .preprocess(
      (value) => (value === '' ? undefined : value),
      z.enum(AUDIT_ACTIONS, { error: QUERY_MESSAGES.unknownAuditAction }).optional(),
    )
    .meta({ description: 'Keeps only this action' }),
  q: adminFilter.meta({ description: 'Keeps only entries whose actor or target name contains this' }),
  cursor,
});
export type AuditQuery = z.output<typeof auditQuerySchema>;

/**
 * `GET /api/threads/{id}`: `refresh=true` reads again a paste the page already shows (a live update, a
 * new reply, an edit): no view is counted. Anything else counts one.
 */
export const pasteQuerySchema = z.object({
  refresh: z
    .preprocess((value) => (value === 'true' ? 'true' : 'false'), z.enum(['true', 'false']))
    .transform((flag) => flag === 'true')
    .meta({ description: 'With `true`, the page shows this paste already (a live update): no view counted' }),
});
export type PasteQuery = z.output<typeof pasteQuerySchema>;

/**
 * `PUT /api/uploads/{key}`: a presigned upload address's query, exactly as `POST /api/objects/upload`
 * handed it out. Each is required in effect: one missing, repeated or not as signed is refused with 403
 * (the signature check's answer, not a 400).
 */
export const uploadAddressQuerySchema = z.object({
  expires: z
    .preprocess(present, z.string().optional())
    .meta({ description: 'When the address expires (Unix seconds), as signed' }),
  signature: z
    .preprocess(present, z.string().optional())
    .meta({ description: 'The signature of the key and `expires`' }),
});
export type UploadAddressQuery = z.output<typeof uploadAddressQuerySchema>;

/** `GET`/`POST /api/unsubscribe?token=…` (a token given twice counts as none). */
export const unsubscribeQuerySchema = z.object({
  token: z
    .preprocess(
      present,
      z
        .string({ error: MAIL_PREFERENCE_MESSAGES.tokenMissing })
        .max(200, MAIL_PREFERENCE_MESSAGES.tokenInvalid),
    )
    .meta({ description: 'The token of the mail’s unsubscribe link' }),
});
export type UnsubscribeQuery = z.output<typeof unsubscribeQuerySchema>;
