import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A version of an edited paste (the table `thread_revisions`): n = 1 the original, then each edit. */
@Entity('thread_revisions')
@Check('thread_revisions_purged_check', '(purged_at IS NULL) = (content IS NOT NULL AND title IS NOT NULL)')
@Index('thread_revisions_editor_idx', ['editorId'])
@Index('thread_revisions_suggested_by_idx', ['suggestedBy'], { where: 'suggested_by IS NOT NULL' })
export class PasteRevision {
  @PrimaryColumn({ name: 'thread_id', type: 'integer', primaryKeyConstraintName: 'thread_revisions_pkey' })
  @ForeignKey('threads', { name: 'thread_revisions_thread_id_fkey', onDelete: 'CASCADE' })
  pasteId!: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'thread_revisions_pkey' })
  n!: number;

  /** Null once purged (the title may hold the secret too). */
  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ type: 'text', nullable: true })
  content!: string | null;

  @Column({ type: 'text', nullable: true })
  language!: string | null;

  /** Null once the editor's account is deleted: the version keeps its text. */
  @Column({ name: 'editor_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'thread_revisions_editor_id_fkey', onDelete: 'SET NULL' })
  editorId!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'lines_added', type: 'integer' })
  linesAdded!: number;

  @Column({ name: 'lines_removed', type: 'integer' })
  linesRemoved!: number;

  @Column({ name: 'purged_at', type: 'timestamptz', nullable: true })
  purgedAt!: Date | null;

  /** A version made by applying a member's suggested change credits them (null once they are gone). */
  @Column({ name: 'suggested_by', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'thread_revisions_suggested_by_fkey', onDelete: 'SET NULL' })
  suggestedBy!: number | null;

  /** The line comment whose suggestion made it. */
  @Column({ name: 'suggestion_reply_id', type: 'integer', nullable: true })
  suggestionReplyId!: number | null;
}
