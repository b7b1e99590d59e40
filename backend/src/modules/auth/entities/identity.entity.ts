import { Column, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A member's account at a sign-in provider: one member per identity, one identity per provider per member. */
@Entity('user_identities')
@Unique('user_identities_provider_subject_key', ['provider', 'subject'])
@Unique('user_identities_user_id_provider_key', ['userId', 'provider'])
export class Identity {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'user_identities_pkey',
  })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { name: 'user_identities_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  /** An OpenID Connect issuer's id of OIDC_PROVIDERS, or `github`. */
  @Column({ type: 'text' })
  provider!: string;

  /** The provider's `sub` (GitHub's numeric user id). */
  @Column({ type: 'text' })
  subject!: string;

  /** What the provider said at the last sign-in. */
  @Column({ type: 'citext', nullable: true })
  email!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  /** Linked while the member's address was unverified: a password reset or change unlinks it. */
  @Column({ name: 'linked_unverified', type: 'boolean', default: false })
  linkedUnverified!: boolean;
}
