import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** Paste `pasteId` carries tag `tagId`; `createdAt` is the paste's, so a tag's pastes page from one index. */
@Entity('paste_tags')
// Newest first (descending in the migration).
@Index('paste_tags_tag_idx', ['tagId', 'createdAt', 'pasteId'])
export class PasteTag {
  @PrimaryColumn({ name: 'thread_id', type: 'integer', primaryKeyConstraintName: 'paste_tags_pkey' })
  @ForeignKey('threads', { name: 'paste_tags_thread_id_fkey', onDelete: 'CASCADE' })
  pasteId!: number;

  @PrimaryColumn({ name: 'tag_id', type: 'integer', primaryKeyConstraintName: 'paste_tags_pkey' })
  @ForeignKey('tags', { name: 'paste_tags_tag_id_fkey', onDelete: 'CASCADE' })
  tagId!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
