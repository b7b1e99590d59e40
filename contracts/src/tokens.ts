import { z } from 'zod';
import { storableText } from './text.js';

/*
 * Personal access tokens (`Authorization: Bearer tp_…`): a token acts as its member, only within its scopes.
 */

/**
 * What a token may do: `pastes:write` makes pastes; `read` reads public data and the member's own
 * pastes; `private:read` what is the member's alone (messages, notifications, chat, reputation ledger).
 */
export const TOKEN_SCOPES = ['pastes:write', 'read', 'private:read'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** One line per scope, as the settings form shows it. */
export const TOKEN_SCOPE_DESCRIPTIONS: Record<TokenScope, string> = {
  'pastes:write': 'make pastes (curl, termpaste)',
  read: 'read public pastes, profiles and your own pastes',
  'private:read': 'read your private messages, notifications and the chat',
};

/** Why a token was revoked, as GET /api/user/tokens lists it. */
export const TOKEN_REVOKED_REASONS = ['password reset', 'password change', 'by you', 'ban'] as const;
export type TokenRevokedReason = (typeof TOKEN_REVOKED_REASONS)[number];
/** A revoked token stays in the member's list this many days (then it is deleted). */
export const REVOKED_TOKEN_LISTED_DAYS = 30;

/** Every token starts with this, so secret scanners can find a leaked one. */
export const TOKEN_PREFIX = 'tp_';
/** Random base62 characters after the prefix. */
export const TOKEN_RANDOM_LENGTH = 40;
/** A token as a member pastes it: `tp_` and 40 base62 characters. */
export const TOKEN_PATTERN = /^tp_[0-9A-Za-z]{40}$/;
/** Live (unexpired, unrevoked) tokens a member may hold at once. */
export const TOKENS_PER_USER_MAX = 20;
export const TOKEN_NAME_MAX = 64;
export const TOKEN_EXPIRY_DAYS_DEFAULT = 30;
export const TOKEN_EXPIRY_DAYS_MAX = 365;
/**
 * Requests one token may make a minute (RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE), reads and writes together,
 * beside the member's own limits (pastes a minute and an hour), which count its tokens' pastes too.
 */
export const TOKEN_REQUESTS_PER_MINUTE_DEFAULT = 120;

export const TOKEN_MESSAGES = {
  nameRequired: 'Token name is required',
  nameTooLong: `Token name must be at most ${TOKEN_NAME_MAX} characters`,
  scopesRequired: 'Choose at least one scope',
  scopeUnknown: `Scopes must be among: ${TOKEN_SCOPES.join(', ')}`,
  scopesRepeated: 'Each scope may be chosen once',
  expiryInvalid: `Expiry must be a whole number of days from 1 to ${TOKEN_EXPIRY_DAYS_MAX}, or none`,
  tooMany: `You can have at most ${TOKENS_PER_USER_MAX} active tokens. Revoke one first.`,
  notFound: 'Token not found',
  /** Making a token needs a verified e-mail address: an unverified one may be someone else's. */
  unverified: 'Verify your e-mail address before making an access token',
  /** A bearer token that is malformed, unknown or revoked. */
  invalid: 'Invalid or revoked access token',
  expired: 'This access token has expired',
  /** The member of the token is banned: all their tokens stop at once. */
  banned: 'Your account is banned: its access tokens no longer work',
  /** An `Authorization` header that is not `Bearer <token>`. */
  malformed: 'Send the access token as: Authorization: Bearer tp_…',
  /** A route no token may call: admin, password, e-mail, token management, anything not opened to tokens. */
  notForTokens: 'Access tokens cannot be used here: sign in on the site',
  tooFast: (seconds: number) =>
    `Too many requests with this access token. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  /** The route needs a scope the token lacks. */
  missingScope: (scope: TokenScope) => `This access token lacks the ${scope} scope`,
} as const;

/** `POST /api/user/tokens` {name, scopes, expiresInDays}: expiresInDays null = never, absent = 30. */
export const createTokenSchema = z.object({
  name: z.preprocess(
    storableText,
    z
      .string({ error: TOKEN_MESSAGES.nameRequired })
      .trim()
      .min(1, TOKEN_MESSAGES.nameRequired)
      .max(TOKEN_NAME_MAX, TOKEN_MESSAGES.nameTooLong),
  ),
  scopes: z
    .array(z.enum(TOKEN_SCOPES, { error: TOKEN_MESSAGES.scopeUnknown }), {
      error: TOKEN_MESSAGES.scopesRequired,
    })
    .min(1, TOKEN_MESSAGES.scopesRequired)
    .refine((scopes) => new Set(scopes).size === scopes.length, TOKEN_MESSAGES.scopesRepeated),
  expiresInDays: z
    .number({ error: TOKEN_MESSAGES.expiryInvalid })
    .int(TOKEN_MESSAGES.expiryInvalid)
    .min(1, TOKEN_MESSAGES.expiryInvalid)
    .max(TOKEN_EXPIRY_DAYS_MAX, TOKEN_MESSAGES.expiryInvalid)
    .nullable()
    .default(TOKEN_EXPIRY_DAYS_DEFAULT),
});
export type CreateTokenBody = z.input<typeof createTokenSchema>;

/** A token as listed: never its secret. Dates are ISO 8601. */
export const tokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** null: never expires. */
  expiresAt: z.string().nullable(),
  /** When it was revoked (it no longer works), or null; listed REVOKED_TOKEN_LISTED_DAYS days after. */
  revokedAt: z
    .string()
    .nullable()
    .meta({
      description: `When it was revoked (it no longer works), or null; revoked tokens are listed ${REVOKED_TOKEN_LISTED_DAYS} days`,
    }),
  /** Why: `password reset`, `password change`, `by you` or `ban`; null while it is not revoked. */
  revokedReason: z.enum(TOKEN_REVOKED_REASONS).nullable().meta({
    description: 'Why it was revoked (a password reset or change, by its member, a ban), or null',
  }),
});
export type AccessToken = z.infer<typeof tokenSchema>;

/** `GET /api/user/tokens`: the member's tokens, newest first, revoked ones of the last 30 days included. */
export const tokenListSchema = z.array(tokenSchema);

/** `POST /api/user/tokens` answers the token once, in `token`. */
export const createdTokenSchema = tokenSchema.extend({ token: z.string() });
export type CreatedAccessToken = z.infer<typeof createdTokenSchema>;
