import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A tag; `pasteCount` counts the listed pastes that carry it (what `/tags` orders by). */
@Entity('tags')
@Check('tags_name_check', "name ~ '^[a-z0-9-]{2,30}$'")
@Index('tags_name_key', ['name'], { unique: true })
// Most used first (descending in the migration: TypeORM's indexes carry no direction).
@Index('tags_use_idx', ['pasteCount', 'name'])
export class Tag {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'tags_pkey' })
  id!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'paste_count', type: 'integer', default: 0 })
  pasteCount!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
