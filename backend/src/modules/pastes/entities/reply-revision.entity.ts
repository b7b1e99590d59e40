import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A version of an edited reply: n = 1 the original, then each edit. */
@Entity('reply_revisions')
@Check('reply_revisions_purged_check', '(purged_at IS NULL) = (content IS NOT NULL)')
@Index('reply_revisions_editor_idx', ['editorId'])
export class ReplyRevision {
  @PrimaryColumn({ name: 'reply_id', type: 'integer', primaryKeyConstraintName: 'reply_revisions_pkey' })
  @ForeignKey('replies', { name: 'reply_revisions_reply_id_fkey', onDelete: 'CASCADE' })
  replyId!: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'reply_revisions_pkey' })
  n!: number;

  /** Null once purged. */
  @Column({ type: 'text', nullable: true })
  content!: string | null;

  @Column({ name: 'editor_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'reply_revisions_editor_id_fkey', onDelete: 'SET NULL' })
  editorId!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'lines_added', type: 'integer' })
  linesAdded!: number;

  @Column({ name: 'lines_removed', type: 'integer' })
  linesRemoved!: number;

  @Column({ name: 'purged_at', type: 'timestamptz', nullable: true })
  purgedAt!: Date | null;
}
