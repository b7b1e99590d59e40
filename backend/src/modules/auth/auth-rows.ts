import type { AccessToken, Identity as IdentityShape } from '@termpaste/contracts';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Identity } from './entities/identity.entity.js';
import { Token } from './entities/token.entity.js';

/* Auth's rows as its reads select them (entity names), and the one place they turn into contracts' shapes. */

const TOKEN_COLUMNS = [
  'id',
  'name',
  'scopes',
  'createdAt',
  'lastUsedAt',
  'expiresAt',
  'revokedAt',
  'revokedReason',
] as const;

/** A token as its member's list shows it (never its hash), over `t`; in AccessToken's order. */
export const TOKEN_SELECT = selectColumns(Token, 't', TOKEN_COLUMNS);

export type TokenRow = Row<Token, (typeof TOKEN_COLUMNS)[number]>;

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

export const toAccessToken = (row: TokenRow): AccessToken => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: iso(row.lastUsedAt),
  expiresAt: iso(row.expiresAt),
  revokedAt: iso(row.revokedAt),
});

const IDENTITY_COLUMNS = ['id', 'userId', 'provider', 'email', 'createdAt', 'lastUsedAt'] as const;

/** A member's account at a sign-in provider, over `i` (never the provider's subject). */
export const IDENTITY_SELECT = selectColumns(Identity, 'i', IDENTITY_COLUMNS);

export type IdentityRow = Row<Identity, (typeof IDENTITY_COLUMNS)[number]>;

/** An identity as the member's settings list it, under `providerName` (the configured provider's name). */
export const toIdentity = (row: IdentityRow, providerName: string): IdentityShape => ({
  id: row.id,
  provider: row.provider,
  providerName,
  email: row.email,
  linkedAt: row.createdAt.toISOString(),
  lastUsedAt: iso(row.lastUsedAt),
});
