import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * Member `userId` watches paste `pasteId` (`watching`), or stopped watching it (`watching` false: kept so
 * that posting or replying there again does not watch it again).
 */
@Entity('paste_watches')
@Index('paste_watches_thread_idx', ['pasteId'], { where: 'watching' })
// Newest first (descending in the migration).
@Index('paste_watches_user_idx', ['userId', 'createdAt'], { where: 'watching' })
export class PasteWatch {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'paste_watches_pkey' })
  @ForeignKey('users', { name: 'paste_watches_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @PrimaryColumn({ name: 'thread_id', type: 'integer', primaryKeyConstraintName: 'paste_watches_pkey' })
  @ForeignKey('threads', { name: 'paste_watches_thread_id_fkey', onDelete: 'CASCADE' })
  pasteId!: number;

  @Column({ type: 'boolean' })
  watching!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
