import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** Per member and capped reason, the points earned on `day` (UTC), so a write takes what is left of the cap. */
@Entity('reputation_daily')
export class ReputationDay {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'reputation_daily_pkey' })
  @ForeignKey('users', { name: 'reputation_daily_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'reputation_daily_pkey' })
  reason!: string;

  /** `YYYY-MM-DD`. */
  @Column({ type: 'date' })
  day!: string;

  @Column({ type: 'integer' })
  earned!: number;

  /** What the last upsert granted (returned to the writer). */
  @Column({ name: 'last_award', type: 'integer' })
  lastAward!: number;
}
