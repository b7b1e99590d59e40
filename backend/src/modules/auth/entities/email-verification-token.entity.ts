import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A mailed e-mail verification link for `email`: only its SHA-256, once the mail worker has minted it. */
@Entity('email_verification_tokens')
@Unique('email_verification_tokens_token_hash_key', ['tokenHash'])
@Index('email_verification_tokens_user_id_idx', ['userId'])
export class EmailVerificationToken {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'email_verification_tokens_pkey',
  })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { name: 'email_verification_tokens_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ type: 'citext' })
  email!: string;

  /** Null until the mail worker mints the token, so the queue never carries it. */
  @Column({ name: 'token_hash', type: 'text', nullable: true })
  tokenHash!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
