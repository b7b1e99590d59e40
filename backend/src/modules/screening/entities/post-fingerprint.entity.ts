import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A text's hash per account: its last post's time and how many posts of it in a row. */
@Entity('post_fingerprints')
@Index('post_fingerprints_created_idx', ['createdAt'])
// The author's newest first (descending in the migration: TypeORM's indexes carry no direction).
@Index('post_fingerprints_author_idx', ['authorId', 'createdAt'])
export class PostFingerprint {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'post_fingerprints_pkey' })
  hash!: string;

  @PrimaryColumn({ name: 'author_id', type: 'integer', primaryKeyConstraintName: 'post_fingerprints_pkey' })
  @ForeignKey('users', { name: 'post_fingerprints_author_id_fkey', onDelete: 'CASCADE' })
  authorId!: number;

  @Column({ type: 'integer', default: 1 })
  posts!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
