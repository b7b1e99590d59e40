import type { NotificationType } from '@termpaste/contracts';
import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** Something a member is told in their bell, once per member and source (`reply:12`, `thread:3`). */
@Entity('notifications')
@Check(
  'notifications_type_check',
  "type IN ('reply', 'message', 'mention', 'moderation', 'watch', 'follow', 'tag')",
)
@Unique('notifications_once_key', ['userId', 'source'])
// Newest first (descending in the migration: TypeORM's indexes carry no direction).
@Index('notifications_user_idx', ['userId', 'createdAt', 'id'])
// The away mails' sweep: unread notifications by age (mailings' migration).
@Index('notifications_unread_idx', ['createdAt'], { where: 'NOT is_read' })
export class Notification {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'notifications_pkey',
  })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { name: 'notifications_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ type: 'text' })
  type!: NotificationType;

  @Column({ type: 'text' })
  content!: string;

  @Column({ name: 'thread_id', type: 'integer', nullable: true })
  @ForeignKey('threads', { name: 'notifications_thread_id_fkey', onDelete: 'SET NULL' })
  pasteId!: number | null;

  @Column({ name: 'actor_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'notifications_actor_id_fkey', onDelete: 'SET NULL' })
  actorId!: number | null;

  @Column({ type: 'text' })
  source!: string;

  @Column({ name: 'is_read', type: 'boolean', default: false })
  isRead!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;
}
