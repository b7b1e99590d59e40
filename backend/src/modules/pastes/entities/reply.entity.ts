import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A reply under a paste, nested under `parentId`. Index keys descend where the migrations say so. */
@Entity('replies')
@Index('replies_thread_idx', ['pasteId', 'createdAt', 'id'])
@Index('replies_parent_idx', ['parentId'])
@Index('replies_author_idx', ['authorId'])
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
}
