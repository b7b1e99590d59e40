import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** Whether member `userId` watches the pastes they post and reply to (no row: they do). */
@Entity('watch_settings')
export class WatchSetting {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'watch_settings_pkey' })
  @ForeignKey('users', { name: 'watch_settings_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ name: 'auto_watch', type: 'boolean' })
  autoWatch!: boolean;
}
