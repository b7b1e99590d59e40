import type { FlagReason, FlagStatus, FlagTarget } from '@termpaste/contracts';
import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A member's flag of an item, once per member and item for ever, and staff's decision on it. */
@Entity('flags')
@Check('flags_target_type_check', "target_type IN ('paste', 'reply', 'chat', 'message', 'member')")
@Check('flags_reason_check', "reason IN ('spam', 'abuse', 'secret', 'illegal', 'off-topic', 'other')")
@Check('flags_status_check', "status IN ('open', 'agreed', 'disagreed', 'ignored')")
@Index('flags_once_key', ['flaggerId', 'targetType', 'targetId'], { unique: true })
@Index('flags_item_idx', ['itemId'])
export class Flag {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'flags_pkey' })
  id!: number;

  @Column({ name: 'item_id', type: 'integer' })
  @ForeignKey('review_items', { name: 'flags_item_id_fkey', onDelete: 'CASCADE' })
  itemId!: number;

  @Column({ name: 'flagger_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'flags_flagger_id_fkey', onDelete: 'SET NULL' })
  flaggerId!: number | null;

  @Column({ name: 'target_type', type: 'text' })
  targetType!: FlagTarget;

  @Column({ name: 'target_id', type: 'integer' })
  targetId!: number;

  @Column({ type: 'text' })
  reason!: FlagReason;

  @Column({ type: 'text', nullable: true })
  note!: string | null;

  /** What it counted towards the item's score. */
  @Column({ type: 'real' })
  weight!: number;

  @Column({ type: 'text', default: 'open' })
  status!: FlagStatus;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
