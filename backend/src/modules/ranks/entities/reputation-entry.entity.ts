import type { ReputationReason } from '@termpaste/contracts';
import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A line of the reputation ledger: points earned or lost, and why; a member's reputation is the sum of
 * theirs. No foreign keys on the source, paste and reply: a line outlives what earned it.
 */
@Entity('reputation_ledger')
@Check(
  'reputation_ledger_reason_check',
  "reason IN ('opening', 'paste', 'reply', 'chat', 'vote', 'vote_undone', 'post_deleted', 'post_restored')",
)
// The member's ledger, newest first (descending in the migration: TypeORM's indexes carry no direction).
@Index('reputation_ledger_user_idx', ['userId', 'createdAt', 'id'])
@Index('reputation_ledger_vote_idx', ['sourceId'], { where: "reason IN ('vote', 'vote_undone')" })
export class ReputationEntry {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'reputation_ledger_pkey',
  })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { name: 'reputation_ledger_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ type: 'integer' })
  points!: number;

  /** One of contracts' REPUTATION_REASONS. */
  @Column({ type: 'text' })
  reason!: ReputationReason;

  /** The day's cap held back some or all of the points. */
  @Column({ type: 'boolean', default: false })
  capped!: boolean;

  /** The paste, reply, chat message or vote that earned it. */
  @Column({ name: 'source_id', type: 'integer', nullable: true })
  sourceId!: number | null;

  @Column({ name: 'thread_id', type: 'integer', nullable: true })
  pasteId!: number | null;

  @Column({ name: 'reply_id', type: 'integer', nullable: true })
  replyId!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;
}
