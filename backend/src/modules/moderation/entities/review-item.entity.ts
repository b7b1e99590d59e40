import type { FlagTarget, ReviewKind, ReviewStatus, SpamSignal } from '@termpaste/contracts';
import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { HeldPayload } from '../../screening/review-queue.js';

/**
 * An item under review: flagged (its target; at most one open item per target) or held for approval
 * (the submitted post in `payload`, its id in `targetId` once approved).
 */
@Entity('review_items')
@Check('review_items_kind_check', "kind IN ('flagged', 'held')")
@Check('review_items_target_type_check', "target_type IN ('paste', 'reply', 'chat', 'message', 'member')")
@Check(
  'review_items_status_check',
  "status IN ('open', 'agreed', 'disagreed', 'ignored', 'approved', 'rejected')",
)
@Check('review_items_target_check', "kind = 'held' OR target_id IS NOT NULL")
@Check('review_items_payload_check', "kind = 'flagged' OR payload IS NOT NULL")
@Index('review_items_open_target_key', ['targetType', 'targetId'], {
  unique: true,
  where: "status = 'open' AND target_id IS NOT NULL",
})
// Newest first (descending in the migration: TypeORM's indexes carry no direction).
@Index('review_items_open_idx', ['updatedAt', 'id'], { where: "status = 'open'" })
@Index('review_items_author_idx', ['authorId'])
export class ReviewItem {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'review_items_pkey',
  })
  id!: number;

  @Column({ type: 'text' })
  kind!: ReviewKind;

  @Column({ name: 'target_type', type: 'text' })
  targetType!: FlagTarget;

  @Column({ name: 'target_id', type: 'integer', nullable: true })
  targetId!: number | null;

  @Column({ name: 'author_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'review_items_author_id_fkey', onDelete: 'SET NULL' })
  authorId!: number | null;

  @Column({ type: 'text', default: 'open' })
  status!: ReviewStatus;

  /** The sum of its flags' weights. */
  @Column({ type: 'real', default: 0 })
  score!: number;

  /** Hidden pending review. */
  @Column({ type: 'boolean', default: false })
  hidden!: boolean;

  /** The spam signals that held or hid it. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  signals!: SpamSignal[];

  @Column({ type: 'jsonb', nullable: true })
  /** A held post; null for a flagged item. */
  payload!: HeldPayload | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  @Column({ name: 'decided_by', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'review_items_decided_by_fkey', onDelete: 'SET NULL' })
  decidedBy!: number | null;
}
