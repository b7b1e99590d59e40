import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A member (`userId`) has blocked another (`memberId`). */
@Entity('member_blocks')
@Check('member_blocks_self_check', 'user_id <> member_id')
@Index('member_blocks_member_idx', ['memberId'])
export class Block {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'member_blocks_pkey' })
  @ForeignKey('users', { name: 'member_blocks_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @PrimaryColumn({ name: 'member_id', type: 'integer', primaryKeyConstraintName: 'member_blocks_pkey' })
  @ForeignKey('users', { name: 'member_blocks_member_id_fkey', onDelete: 'CASCADE' })
  memberId!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
