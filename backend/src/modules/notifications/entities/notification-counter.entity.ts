import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** A member's unread notifications, kept on write. */
@Entity('notification_counters')
@Check('notification_counters_unread_check', 'unread >= 0')
export class NotificationCounter {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'notification_counters_pkey' })
  @ForeignKey('users', { name: 'notification_counters_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ type: 'integer', default: 0 })
  unread!: number;
}
