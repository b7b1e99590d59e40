import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A private message (the table `private_messages`). Lists are newest first (descending in the migration). */
@Entity('private_messages')
@Index('private_messages_inbox_idx', ['recipientId', 'createdAt', 'id'])
@Index('private_messages_sent_idx', ['senderId', 'createdAt', 'id'])
export class Message {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'private_messages_pkey',
  })
  id!: number;

  @Column({ name: 'sender_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'private_messages_sender_id_fkey', onDelete: 'SET NULL' })
  senderId!: number | null;

  @Column({ name: 'recipient_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'private_messages_recipient_id_fkey', onDelete: 'SET NULL' })
  recipientId!: number | null;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'text' })
  content!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'is_read', type: 'boolean', default: false })
  isRead!: boolean;

  /** The e-mail address the sender typed; null: sent to a username. */
  @Column({ name: 'recipient_address', type: 'text', nullable: true })
  recipientAddress!: string | null;
}
