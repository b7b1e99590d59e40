import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The paste count (the table `forum_stats`), spread over 16 slots so concurrent writes do not queue on
 * one row: a transaction moves its connection's slot, the count is their sum (a slot may go below zero).
 */
@Entity('forum_stats')
@Check('forum_stats_slot_check', 'slot BETWEEN 0 AND 15')
export class PasteStats {
  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'forum_stats_pkey' })
  slot!: number;

  @Column({ name: 'thread_count', type: 'integer', default: 0 })
  pasteCount!: number;
}
