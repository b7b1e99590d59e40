import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A provider-only member's mailed confirmation of deleting their account: the token's SHA-256 only. */
@Entity('account_deletion_links')
@Unique('account_deletion_links_token_hash_key', ['tokenHash'])
@Index('account_deletion_links_user_idx', ['userId'])
export class AccountDeletionLink {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'account_deletion_links_pkey',
  })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { name: 'account_deletion_links_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  /** Null until the mail is written (the token is minted then). */
  @Column({ name: 'token_hash', type: 'text', nullable: true })
  tokenHash!: string | null;

  @Column({ name: 'keep_content', type: 'boolean' })
  keepContent!: boolean;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
