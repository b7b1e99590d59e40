import type { SpamMarkKind } from '@termpaste/contracts';
import { Check, Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A deleted spammer's e-mail domain, or address hash (SHA-256 of the lower-cased address). */
@Entity('spam_marks')
@Check('spam_marks_kind_check', "kind IN ('address', 'domain')")
@Unique('spam_marks_key', ['kind', 'value'])
// Newest first: the index's keys are DESC, which TypeORM cannot state (the diff compares columns only).
@Index('spam_marks_created_idx', ['createdAt', 'id'])
export class SpamMark {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'spam_marks_pkey',
  })
  id!: number;

  @Column({ type: 'text' })
  kind!: SpamMarkKind;

  @Column({ type: 'text' })
  value!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** The deleted spammer's username; null for marks made before it was kept. */
  @Column({ type: 'text', nullable: true })
  spammer!: string | null;
}
