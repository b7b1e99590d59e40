import { createHash, randomBytes } from 'node:crypto';
import { ConflictException, ForbiddenException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  type AccessToken,
  type CreatedAccessToken,
  REVOKED_TOKEN_LISTED_DAYS,
  TOKEN_MESSAGES,
  TOKEN_PREFIX,
  TOKEN_RANDOM_LENGTH,
  type TokenRevokedReason,
  type TokenScope,
  TOKENS_PER_USER_MAX,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { type Row } from '../../../infra/database/columns.js';
import { type PreparedStatement, prepare, queryPrepared } from '../../../infra/database/prepared.js';
import { asJoinedUser, joinedUserColumns, joinUser } from '../../users/account-sql.js';
import { TOKEN_SELECT, type TokenRow, toAccessToken } from '../auth-rows.js';
import type { User } from '../../users/entities/user.entity.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Bytes at or above this (62 × 4) are dropped, so every character is equally likely (no modulo bias). */
const UNBIASED_BELOW = 248;

/** `tp_` and 40 base62 characters from crypto.randomBytes, by rejection sampling. */
export function generateToken(): string {
  let random = '';
  while (random.length < TOKEN_RANDOM_LENGTH) {
    for (const byte of randomBytes(TOKEN_RANDOM_LENGTH)) {
      if (byte < UNBIASED_BELOW) random += BASE62[byte % 62];
      if (random.length === TOKEN_RANDOM_LENGTH) break;
    }
  }
  return TOKEN_PREFIX + random;
}

/** What is stored of a token: its SHA-256, hex. */
export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token's last use is written at most this often (no write per request). */
export const LAST_USED_EVERY_MS = 60_000;
/** The first key of the advisory lock that serializes one member's token creations. */
const CREATE_LOCK = 0x7470_0001;

/** A request's token, once its hash matched: who it acts for and what it may do. */
export interface RequestToken {
  id: number;
  scopes: TokenScope[];
}

/** What authenticate found for a token. */
export type TokenCheck =
  | { status: 'ok'; token: RequestToken; user: User }
  | { status: 'unknown' }
  | { status: 'expired' }
  | { status: 'banned' };

/** A revoked token is listed, then deleted (TokensSweeper), this long after its revocation. */
export const REVOKED_LISTED = `interval '${REVOKED_TOKEN_LISTED_DAYS} days'`;

/**
 * Revokes every live token of the member in `manager`'s transaction (a password reset or change, a
 * ban), with `reason`; resolves with how many. Token checks read the row per request, so they stop at once
 * on every instance when this commits.
 */
export async function revokeUserTokens(
  manager: EntityManager,
  userId: number,
  reason: TokenRevokedReason,
): Promise<number> {
  const rows: unknown[] = await manager.query(
    `WITH revoked AS (
       UPDATE personal_access_tokens SET revoked_at = now(), revoked_reason = $2
       WHERE user_id = $1 AND revoked_at IS NULL RETURNING id)
     SELECT id FROM revoked`,
    [userId, reason],
  );
  return rows.length;
}

/** A token's row (what a request needs of it) with its member's whole row (joinedUserColumns). */
type TokenWithUser = Row<User, keyof User> & {
  tokenId: number;
  tokenScopes: TokenScope[];
  tokenExpired: boolean;
  tokenRevoked: boolean;
  tokenStale: boolean;
};

let byHash: PreparedStatement<TokenWithUser, [tokenHash: string]> | undefined;
/** The token of a hash with its member, whole: the one statement a token request costs (an index lookup). */
function byHashStatement(dataSource: DataSource): PreparedStatement<TokenWithUser, [tokenHash: string]> {
  byHash ??= prepare(
    'access-token-by-hash',
    `SELECT t.id AS "tokenId", t.scopes AS "tokenScopes",
            t.expires_at IS NOT NULL AND t.expires_at <= now() AS "tokenExpired",
            t.revoked_at IS NOT NULL AS "tokenRevoked",
            t.last_used_at IS NULL OR t.last_used_at <= now() - interval '${LAST_USED_EVERY_MS} milliseconds'
              AS "tokenStale",
            ${joinedUserColumns(dataSource, 'u')}
     FROM personal_access_tokens t ${joinUser('u', 't.user_id')}
     WHERE t.token_hash = $1`,
  );
  return byHash;
}

const touch = prepare<never, [tokenId: number]>(
  'access-token-touch',
  `UPDATE personal_access_tokens SET last_used_at = now()
   WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= now() - interval '${LAST_USED_EVERY_MS} milliseconds')`,
);

/** Personal access tokens: made, listed and revoked by their member; checked per request. */
@Injectable()
export class AccessTokensService {
  private readonly logger = new Logger('AccessTokens');

  constructor(private readonly dataSource: DataSource) {}

  /**
   * The member's tokens, newest first: never a secret or a hash. Revoked ones for
   * REVOKED_TOKEN_LISTED_DAYS days after (whether or not the sweep has deleted them yet).
   */
  async list(userId: number): Promise<AccessToken[]> {
    const rows: TokenRow[] = await this.dataSource.query(
      `SELECT ${TOKEN_SELECT} FROM personal_access_tokens t
       WHERE t.user_id = $1 AND (t.revoked_at IS NULL OR t.revoked_at > now() - ${REVOKED_LISTED})
       ORDER BY t.created_at DESC, t.id DESC`,
      [userId],
    );
    return rows.map(toAccessToken);
  }

  /**
   * A new token, its secret answered once. Verified e-mail only (403): an unverified address may be
   * someone else's. At most TOKENS_PER_USER_MAX live ones (409), counted and inserted under a lock so
   * two creations at once cannot both pass.
   */
  async create(
    user: Pick<User, 'id' | 'emailVerifiedAt'>,
    body: { name: string; scopes: TokenScope[]; expiresInDays: number | null },
  ): Promise<CreatedAccessToken> {
    if (user.emailVerifiedAt === null) throw new ForbiddenException(TOKEN_MESSAGES.unverified);
    const userId = user.id;
    const token = generateToken();
    const row = await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [CREATE_LOCK, userId]);
      const [{ live }]: Array<{ live: number }> = await manager.query(
        `SELECT count(*)::int AS live FROM personal_access_tokens
         WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
        [userId],
      );
      if (live >= TOKENS_PER_USER_MAX) throw new ConflictException(TOKEN_MESSAGES.tooMany);
      const [inserted]: TokenRow[] = await manager.query(
        `INSERT INTO personal_access_tokens AS t (user_id, name, token_hash, scopes, expires_at)
         VALUES ($1, $2, $3, $4::text[], CASE WHEN $5::int IS NULL THEN NULL ELSE now() + make_interval(days => $5::int) END)
         RETURNING ${TOKEN_SELECT}`,
        [userId, body.name, accessTokenHash(token), body.scopes, body.expiresInDays],
      );
      return inserted!;
    });
    return { ...toAccessToken(row), token };
  }

  /**
   * Revokes the member's token `id` (`by you`): it stops working at once and stays listed as revoked.
   * One revoked already keeps its first revocation. Another member's, or none: 404.
   */
  async revoke(userId: number, id: number): Promise<void> {
    // In a WITH, so the rows come back as a SELECT's (TypeORM answers a bare UPDATE with [rows, count]).
    const rows: unknown[] = await this.dataSource.query(
      `WITH revoked AS (
         UPDATE personal_access_tokens
         SET revoked_at = coalesce(revoked_at, now()), revoked_reason = coalesce(revoked_reason, 'by you')
         WHERE id = $1 AND user_id = $2 RETURNING id)
       SELECT id FROM revoked`,
      [id, userId],
    );
    if (rows.length === 0) throw new NotFoundException(TOKEN_MESSAGES.notFound);
  }

  /**
   * The token's member and scopes, by the token's hash (a prepared statement, no cache: a revoked token
   * or a banned member stops at once on every instance). Marks the token used, at most once a minute.
   */
  async authenticate(token: string): Promise<TokenCheck> {
    const [row] = await queryPrepared(this.dataSource, byHashStatement(this.dataSource), [
      accessTokenHash(token),
    ]);
    if (!row) return { status: 'unknown' };
    const { tokenId, tokenScopes, tokenExpired, tokenRevoked, tokenStale, ...columns } = row;
    const user = asJoinedUser(columns);
    // A banned member is told so (a ban revokes their tokens too); a revoked token answers as an unknown one.
    if (user.isBanned) return { status: 'banned' };
    if (tokenRevoked) return { status: 'unknown' };
    if (tokenExpired) return { status: 'expired' };
    if (tokenStale) {
      await queryPrepared(this.dataSource, touch, [tokenId]).catch((error: unknown) =>
        this.logger.warn(`Recording a token's use failed: ${error instanceof Error ? error.message : error}`),
      );
    }
    return { status: 'ok', token: { id: tokenId, scopes: tokenScopes }, user };
  }
}
