import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';

/** A member. Counters are kept up to date by the writes that change them. */
@Entity('users')
@Unique('users_username_key', ['username'])
@Unique('users_email_key', ['email'])
@Check('users_username_format', "username::text ~ '^[A-Za-z0-9_-]{3,32}$'")
@Check('users_owner_is_admin', 'NOT is_owner OR is_admin')
// At most one owner: an index on the constant (true), which TypeORM cannot describe.
@Index('users_single_owner', { synchronize: false })
// The name filters' trigram indexes are on an expression with an operator class, which TypeORM cannot describe.
@Index('users_username_trgm_idx', { synchronize: false })
@Index('users_email_trgm_idx', { synchronize: false })
// Keys in descending order, as the migrations made them (TypeORM's indexes carry no direction).
@Index('users_reputation_idx', ['reputation', 'id'])
@Index('users_recent_idx', ['createdAt', 'id'])
@Index('users_banned_until_idx', ['bannedUntil'], { where: 'banned_until IS NOT NULL' })
@Index('users_silenced_until_idx', ['silencedUntil'], { where: 'silenced_until IS NOT NULL' })
export class User {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'users_pkey' })
  id!: number;

  /** citext: unique without regard to case, kept as typed. */
  @Column({ type: 'citext' })
  username!: string;

  @Column({ type: 'citext' })
  email!: string;

  /** argon2id, PHC string. Never leaves the backend. Null: an account a sign-in provider made, no password yet. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  /**
   * False for an account a sign-in provider made until its member keeps or changes the proposed username,
   * once.
   */
  @Column({ name: 'username_chosen', type: 'boolean', default: true })
  usernameChosen!: boolean;

  @Column({ name: 'first_name', type: 'text', nullable: true })
  firstName!: string | null;

  @Column({ name: 'last_name', type: 'text', nullable: true })
  lastName!: string | null;

  @Column({ name: 'avatar_url', type: 'text', nullable: true })
  avatarUrl!: string | null;

  @Column({ name: 'profile_image_url', type: 'text', nullable: true })
  profileImageUrl!: string | null;

  /** Markdown. */
  @Column({ type: 'text', nullable: true })
  bio!: string | null;

  @Column({ type: 'integer', default: 0 })
  reputation!: number;

  /** Null: the reputation rank applies. */
  @Column({ name: 'active_premium_rank', type: 'text', nullable: true })
  activePremiumRank!: string | null;

  @Column({ name: 'owned_premium_ranks', type: 'text', array: true, default: () => "'{}'" })
  ownedPremiumRanks!: string[];

  @Column({ name: 'thread_count', type: 'integer', default: 0 })
  threadCount!: number;

  @Column({ name: 'reply_count', type: 'integer', default: 0 })
  replyCount!: number;

  @Column({ name: 'is_admin', type: 'boolean', default: false })
  isAdmin!: boolean;

  @Column({ name: 'is_owner', type: 'boolean', default: false })
  isOwner!: boolean;

  @Column({ name: 'is_banned', type: 'boolean', default: false })
  isBanned!: boolean;

  /** A timed ban's end (a job lifts it then); null while banned: for ever. */
  @Column({ name: 'banned_until', type: 'timestamptz', nullable: true })
  bannedUntil!: Date | null;

  /** Why staff banned them (shown at sign-in and in the mail). */
  @Column({ name: 'ban_reason', type: 'text', nullable: true })
  banReason!: string | null;

  /** Silenced (read-only: they read and contact support) until then; null: not silenced. */
  @Column({ name: 'silenced_until', type: 'timestamptz', nullable: true })
  silencedUntil!: Date | null;

  @Column({ name: 'silence_reason', type: 'text', nullable: true })
  silenceReason!: string | null;

  /** When the member opened the link mailed to `email`; null: not verified (they read, not write). */
  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * The member as they stand now: a timed ban or a silence whose end has passed counts as lifted at once,
 * before the job that lifts it in the database has run (every guard reads the account through here).
 */
export function withEndedLifted(user: User, now = Date.now()): User {
  if (user.isBanned && user.bannedUntil !== null && user.bannedUntil.getTime() <= now) {
    user.isBanned = false;
    user.bannedUntil = null;
    user.banReason = null;
  }
  if (user.silencedUntil !== null && user.silencedUntil.getTime() <= now) {
    user.silencedUntil = null;
    user.silenceReason = null;
  }
  return user;
}
