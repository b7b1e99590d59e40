import type { TokenRevokedReason, TokenScope } from '@termpaste/contracts';
import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A personal access token (the table `personal_access_tokens`): only its SHA-256, hex. */
@Entity('personal_access_tokens')
@Unique('personal_access_tokens_token_hash_key', ['tokenHash'])
@Check(
  'personal_access_tokens_scopes_check',
  "cardinality(scopes) > 0 AND scopes <@ ARRAY['pastes:write', 'read', 'private:read']::text[]",
)
@Check(
  'personal_access_tokens_revoked_check',
  '(revoked_at IS NULL) = (revoked_reason IS NULL)' +
    " AND revoked_reason IN ('password reset', 'password change', 'by you', 'ban')",
)
// The member's list, newest first (descending in the migration: TypeORM's indexes carry no direction).
@Index('personal_access_tokens_user_id_idx', ['userId', 'createdAt'])
@Index('personal_access_tokens_revoked_at_idx', ['revokedAt'], { where: 'revoked_at IS NOT NULL' })
export class Token {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'personal_access_tokens_pkey',
  })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { name: 'personal_access_tokens_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ type: 'text', array: true })
  scopes!: TokenScope[];

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  /** Null: never. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  /** Revoked tokens stay listed for 30 days; both set, or neither. */
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'revoked_reason', type: 'text', nullable: true })
  revokedReason!: TokenRevokedReason | null;
}
