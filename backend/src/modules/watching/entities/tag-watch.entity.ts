import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** Member `userId` watches tag `tagId`: new public pastes carrying it notify them. */
@Entity('tag_watches')
@Index('tag_watches_tag_idx', ['tagId'])
export class TagWatch {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'tag_watches_pkey' })
  @ForeignKey('users', { name: 'tag_watches_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @PrimaryColumn({ name: 'tag_id', type: 'integer', primaryKeyConstraintName: 'tag_watches_pkey' })
  @ForeignKey('tags', { name: 'tag_watches_tag_id_fkey', onDelete: 'CASCADE' })
  tagId!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
