import type { ExportStatus } from '@termpaste/contracts';
import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A member's data export: its state and, once built, the archive's storage key and the link's end. */
@Entity('account_exports')
@Check('account_exports_status_check', "status IN ('queued', 'running', 'ready', 'failed', 'expired')")
// Newest first (descending in the migration: TypeORM's indexes carry no direction).
@Index('account_exports_user_idx', ['userId', 'requestedAt', 'id'])
@Index('account_exports_expiry_idx', ['expiresAt'], { where: "status = 'ready'" })
export class AccountExport {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'account_exports_pkey',
  })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { name: 'account_exports_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ type: 'text', default: 'queued' })
  status!: Exclude<ExportStatus, 'none'>;

  @Column({ name: 'requested_at', type: 'timestamptz', default: () => 'now()' })
  requestedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'storage_key', type: 'text', nullable: true })
  storageKey!: string | null;

  /** Bytes; a bigint, which pg returns as a string. */
  @Column({ type: 'bigint', nullable: true })
  size!: string | null;
}
