import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { SuspensionKind } from '../suspensions.queue.js';

/** A ban or a silence staff gave (the member's current state is on `users`). */
@Entity('suspensions')
@Check('suspensions_kind_check', "kind IN ('ban', 'silence')")
// Newest first (descending in the migration: TypeORM's indexes carry no direction).
@Index('suspensions_user_idx', ['userId', 'startsAt'])
export class Suspension {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'suspensions_pkey',
  })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { name: 'suspensions_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ type: 'text' })
  kind!: SuspensionKind;

  @Column({ name: 'starts_at', type: 'timestamptz', default: () => 'now()' })
  startsAt!: Date;

  /** Null: for ever. */
  @Column({ name: 'ends_at', type: 'timestamptz', nullable: true })
  endsAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ name: 'actor_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'suspensions_actor_id_fkey', onDelete: 'SET NULL' })
  actorId!: number | null;

  @Column({ name: 'lifted_at', type: 'timestamptz', nullable: true })
  liftedAt!: Date | null;
}
