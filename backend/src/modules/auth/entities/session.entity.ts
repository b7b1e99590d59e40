import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A sign-in session (express-session's store): its id, the member, the session's data. */
@Entity('sessions')
@Index('sessions_user_id_idx', ['userId'])
@Index('sessions_expires_at_idx', ['expiresAt'])
export class Session {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'sessions_pkey' })
  sid!: string;

  /** Null: a session without a member (nobody signed in yet). */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'sessions_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number | null;

  @Column({ type: 'jsonb' })
  data!: unknown;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** The sign-in, for the sessions' absolute lifetime. */
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
