import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A member (`userId`) has muted another (`memberId`). */
@Entity('member_mutes')
@Check('member_mutes_self_check', 'user_id <> member_id')
@Index('member_mutes_member_idx', ['memberId'])
export class Mute {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'member_mutes_pkey' })
  @ForeignKey('users', { name: 'member_mutes_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @PrimaryColumn({ name: 'member_id', type: 'integer', primaryKeyConstraintName: 'member_mutes_pkey' })
  @ForeignKey('users', { name: 'member_mutes_member_id_fkey', onDelete: 'CASCADE' })
  memberId!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
