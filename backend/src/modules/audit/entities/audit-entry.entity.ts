import { AUDIT_ACTIONS, type AuditAction, type AuditEntry as AuditEntryShape } from '@termpaste/contracts';
import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A line of the admin log (the table `audit_log`): who did what to which paste, reply or member. */
@Entity('audit_log')
// The list and its order are contracts' (the migrations write it literally; schema-diff.spec compares).
@Check('audit_log_action_check', `action IN (${AUDIT_ACTIONS.map((action) => `'${action}'`).join(', ')})`)
@Check(
  'audit_log_target_type_check',
  "target_type IN ('thread', 'reply', 'user', 'chat', 'message', 'spam_mark', 'tag')",
)
// Newest first (descending in the migration: TypeORM's indexes carry no direction).
@Index('audit_log_recent_idx', ['createdAt', 'id'])
@Index('audit_log_action_idx', ['action', 'createdAt', 'id'])
@Index('audit_log_actor_idx', ['actorId'])
export class AuditEntry {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'audit_log_pkey',
  })
  id!: number;

  @Column({ name: 'actor_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'audit_log_actor_id_fkey', onDelete: 'SET NULL' })
  actorId!: number | null;

  /** Kept when the actor's account is deleted. */
  @Column({ name: 'actor_name', type: 'text' })
  actorName!: string;

  @Column({ type: 'text' })
  action!: AuditAction;

  @Column({ name: 'target_type', type: 'text' })
  targetType!: AuditEntryShape['targetType'];

  @Column({ name: 'target_id', type: 'integer' })
  targetId!: number;

  /** The target's label as it was then. */
  @Column({ name: 'target_label', type: 'text' })
  targetLabel!: string;

  @Column({ type: 'jsonb', nullable: true })
  before!: unknown;

  @Column({ type: 'jsonb', nullable: true })
  after!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;
}
