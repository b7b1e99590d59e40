import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** Member `userId` follows member `memberId`: their new public pastes notify them. */
@Entity('member_follows')
@Check('member_follows_self_check', 'user_id <> member_id')
@Index('member_follows_member_idx', ['memberId'])
export class MemberFollow {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'member_follows_pkey' })
  @ForeignKey('users', { name: 'member_follows_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @PrimaryColumn({ name: 'member_id', type: 'integer', primaryKeyConstraintName: 'member_follows_pkey' })
  @ForeignKey('users', { name: 'member_follows_member_id_fkey', onDelete: 'CASCADE' })
  memberId!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
