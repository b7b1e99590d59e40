import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A member's up (1) or down (-1) vote on a paste or on a reply (one of them), once per target. */
@Entity('votes')
@Check('votes_value_check', 'value IN (1, -1)')
@Check('votes_one_target', 'num_nonnulls(thread_id, reply_id) = 1')
@Index('votes_user_thread_key', ['userId', 'pasteId'], { unique: true, where: 'thread_id IS NOT NULL' })
@Index('votes_user_reply_key', ['userId', 'replyId'], { unique: true, where: 'reply_id IS NOT NULL' })
@Index('votes_thread_idx', ['pasteId'])
@Index('votes_reply_idx', ['replyId'])
export class Vote {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'votes_pkey' })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { name: 'votes_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ name: 'thread_id', type: 'integer', nullable: true })
  @ForeignKey('threads', { name: 'votes_thread_id_fkey', onDelete: 'CASCADE' })
  pasteId!: number | null;

  @Column({ name: 'reply_id', type: 'integer', nullable: true })
  @ForeignKey('replies', { name: 'votes_reply_id_fkey', onDelete: 'CASCADE' })
  replyId!: number | null;

  @Column({ type: 'smallint' })
  value!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
