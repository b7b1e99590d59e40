import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Member `userId` saved a paste (`pasteId`) or a reply (`replyId`), with an optional note. */
@Entity('bookmarks')
@Check('bookmarks_note_check', 'char_length(note) <= 200')
@Check('bookmarks_target_check', '(thread_id IS NULL) <> (reply_id IS NULL)')
@Index('bookmarks_thread_key', ['userId', 'pasteId'], { unique: true })
@Index('bookmarks_reply_key', ['userId', 'replyId'], { unique: true })
// Newest first (descending in the migration).
@Index('bookmarks_user_idx', ['userId', 'createdAt', 'id'])
@Index('bookmarks_thread_idx', ['pasteId'])
@Index('bookmarks_reply_idx', ['replyId'])
export class Bookmark {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'bookmarks_pkey',
  })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { name: 'bookmarks_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ name: 'thread_id', type: 'integer', nullable: true })
  @ForeignKey('threads', { name: 'bookmarks_thread_id_fkey', onDelete: 'CASCADE' })
  pasteId!: number | null;

  @Column({ name: 'reply_id', type: 'integer', nullable: true })
  @ForeignKey('replies', { name: 'bookmarks_reply_id_fkey', onDelete: 'CASCADE' })
  replyId!: number | null;

  @Column({ type: 'text', nullable: true })
  note!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
