import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * A paste's SSH signature over its exact bytes, checked when it was made against its author's key of
 * `fingerprint`; an edit deletes it.
 */
@Entity('paste_signatures')
export class PasteSignature {
  @PrimaryColumn({ name: 'thread_id', type: 'integer', primaryKeyConstraintName: 'paste_signatures_pkey' })
  @ForeignKey('threads', { name: 'paste_signatures_thread_id_fkey', onDelete: 'CASCADE' })
  pasteId!: number;

  /** The armoured text, as sent (GET /api/threads/{id}/raw.sig serves it). */
  @Column({ type: 'text' })
  signature!: string;

  @Column({ type: 'text' })
  fingerprint!: string;

  @Column({ name: 'key_type', type: 'text' })
  keyType!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
