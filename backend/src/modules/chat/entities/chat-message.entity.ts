import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A line in the global live room. */
@Entity('chat_messages')
@Check('chat_messages_content_check', 'char_length(content) BETWEEN 1 AND 500')
// Newest first (descending in the migration: TypeORM's indexes carry no direction).
@Index('chat_messages_recent_idx', ['createdAt', 'id'])
export class ChatMessage {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'chat_messages_pkey',
  })
  id!: number;

  @Column({ name: 'author_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'chat_messages_author_id_fkey', onDelete: 'SET NULL' })
  authorId!: number | null;

  @Column({ type: 'text' })
  content!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'hidden_at', type: 'timestamptz', nullable: true })
  hiddenAt!: Date | null;
}
