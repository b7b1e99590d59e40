import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A reply under a paste, nested under `parentId`. Index keys descend where the migrations say so. */
@Entity('replies')
@Index('replies_thread_idx', ['pasteId', 'createdAt', 'id'])
@Index('replies_parent_idx', ['parentId'])
@Index('replies_author_idx', ['authorId'])
@Check(
  'replies_anchor_check',
  `(anchor_from IS NULL) = (anchor_to IS NULL)
   AND (anchor_from IS NULL) = (anchor_version IS NULL)
   AND (anchor_from IS NULL) = (anchor_hash IS NULL)
   AND (anchor_from IS NULL OR (anchor_from >= 1 AND anchor_from <= anchor_to))
   AND (suggestion IS NULL OR anchor_from IS NOT NULL)
   AND (suggestion_applied IS NULL OR suggestion IS NOT NULL)`,
)
@Index('replies_deleted_idx', ['deletedAt', 'id'], { where: 'deleted_at IS NOT NULL' })
export class Reply {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'replies_pkey',
  })
  id!: number;

  @Column({ name: 'thread_id', type: 'integer' })
  @ForeignKey('threads', { name: 'replies_thread_id_fkey', onDelete: 'CASCADE' })
  pasteId!: number;

  @Column({ name: 'parent_id', type: 'integer', nullable: true })
  @ForeignKey('replies', { name: 'replies_parent_id_fkey', onDelete: 'CASCADE' })
  parentId!: number | null;

  @Column({ name: 'author_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'replies_author_id_fkey', onDelete: 'SET NULL' })
  authorId!: number | null;

  @Column({ type: 'text' })
  content!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'vote_score', type: 'integer', default: 0 })
  voteScore!: number;

  @Column({ name: 'edited_at', type: 'timestamptz', nullable: true })
  editedAt!: Date | null;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'deleted_by', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'replies_deleted_by_fkey', onDelete: 'SET NULL' })
  deletedBy!: number | null;

  @Column({ name: 'hidden_at', type: 'timestamptz', nullable: true })
  hiddenAt!: Date | null;

  /** A line comment's first and last line (1-based) of version `anchorVersion` of its paste. */
  @Column({ name: 'anchor_from', type: 'integer', nullable: true })
  anchorFrom!: number | null;

  @Column({ name: 'anchor_to', type: 'integer', nullable: true })
  anchorTo!: number | null;

  @Column({ name: 'anchor_version', type: 'integer', nullable: true })
  anchorVersion!: number | null;

  /** A hash of the anchored lines as they read then: a later version that changed them makes it older. */
  @Column({ name: 'anchor_hash', type: 'text', nullable: true })
  anchorHash!: string | null;

  /** The replacement a line comment suggests for its lines (may be empty: remove them). */
  @Column({ type: 'text', nullable: true })
  suggestion!: string | null;

  /** The version of the paste applying the suggestion made. */
  @Column({ name: 'suggestion_applied', type: 'integer', nullable: true })
  suggestionApplied!: number | null;
}
